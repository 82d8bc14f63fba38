// Driver: openai-java's Responses streaming, its ResponseAccumulator, and a tool loop this
// driver writes (the SDK has none), pointed at serve.
//
// `java -cp @CLASSPATH OpenAiJavaDriver.java BASE_URL PROMPT` (the JDK's source-file mode).
// Two function tools declared from classes (`addTool(Class)`): echo(text), which returns its
// text, and ping(), which takes nothing (declared with local schema validation off: it refuses
// a class without properties, though the API takes an empty object schema). Each turn streams (`createStreaming`), feeds every
// event to a ResponseAccumulator and takes its `response()`; each function call is replayed
// as the SDK returned it (`ofFunctionCall`), its arguments parsed by `arguments(Class)`, its
// output appended, and the next request sent, until a response has no call. No retries.
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
        for (int turn = 0; turn < 4; turn++) {
            var params = ResponseCreateParams.builder().model("gpt-5.1").inputOfResponse(history)
                    .addTool(Echo.class, JsonSchemaLocalValidation.YES, tool -> tool.name("echo"))
                    .addTool(Ping.class, JsonSchemaLocalValidation.NO, tool -> tool.name("ping"))
                    .build();
            var accumulator = ResponseAccumulator.create();
            try (var stream = client.responses().createStreaming(params)) {
                stream.stream().forEach(accumulator::accumulate);
            }
            var calls = accumulator.response().output().stream()
                    .flatMap(item -> item.functionCall().stream()).toList();
            if (calls.isEmpty()) {
                System.out.println(accumulator.response().output().size() + " output items, no call");
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
