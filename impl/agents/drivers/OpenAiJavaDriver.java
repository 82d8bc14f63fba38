// Driver: openai-java's Responses streaming, pointed at serve, with a tool loop this driver
// writes (the SDK has none).
//
// `java -cp @CLASSPATH OpenAiJavaDriver.java BASE_URL PROMPT [accumulated|items]` (the JDK's
// source-file mode). Two function tools declared from classes (`addTool(Class)`): echo(text),
// which returns its text, and ping(), which takes nothing (declared with local schema validation
// off: it refuses a class without properties, though the API takes an empty object schema).
// Each turn streams (`createStreaming`). The SDK's README shows two ways to read a streamed
// turn, so the driver runs either: "accumulated" (the default) feeds every event to a
// ResponseAccumulator and reads the calls from its `response()` (its "Streaming helpers"),
// "items" reads the stream's events themselves and takes the items of the
// `response.output_item.done` events, in stream order (its "Streaming"). Each function call is
// replayed as the SDK returned it (`ofFunctionCall`), its arguments parsed by
// `arguments(Class)`, its output appended, and the next request sent, until a turn has no
// call. No retries.
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonSchemaLocalValidation;
import com.openai.helpers.ResponseAccumulator;
import com.openai.models.responses.*;
import java.util.ArrayList;
import java.util.List;

public class OpenAiJavaDriver {
    public static class Echo { public String text; }

    public static class Ping { }

    public static void main(String[] args) {
        var client = OpenAIOkHttpClient.builder().baseUrl(args[0])
                .apiKey(System.getenv("OPENAI_API_KEY")).maxRetries(0).build();
        List<ResponseInputItem> history = new ArrayList<>(List.of(ResponseInputItem.ofEasyInputMessage(
                EasyInputMessage.builder().role(EasyInputMessage.Role.USER).content(args[1]).build())));
        boolean fromItems = args.length > 2 && args[2].equals("items");
        for (int turn = 0; turn < 4; turn++) {
            var params = ResponseCreateParams.builder().model("gpt-5.1").inputOfResponse(history)
                    .addTool(Echo.class, JsonSchemaLocalValidation.YES, tool -> tool.name("echo"))
                    .addTool(Ping.class, JsonSchemaLocalValidation.NO, tool -> tool.name("ping"))
                    .build();
            var accumulator = ResponseAccumulator.create();
            List<ResponseOutputItem> done = new ArrayList<>();
            try (var stream = client.responses().createStreaming(params)) {
                if (fromItems) {
                    stream.stream().forEach(event -> event.outputItemDone().ifPresent(e -> done.add(e.item())));
                } else {
                    stream.stream().forEach(accumulator::accumulate);
                }
            }
            var items = fromItems ? done : accumulator.response().output();
            var calls = items.stream().flatMap(item -> item.functionCall().stream()).toList();
            if (calls.isEmpty()) {
                System.out.println(items.size() + " output items, no call");
                return;
            }
            for (var call : calls) {
                var output = call.name().equals("ping") ? "pong" : call.arguments(Echo.class).text;
                history.add(ResponseInputItem.ofFunctionCall(call));
                history.add(ResponseInputItem.ofFunctionCallOutput(ResponseInputItem.FunctionCallOutput
                        .builder().callId(call.callId()).output(output).build()));
            }
        }
    }
}
