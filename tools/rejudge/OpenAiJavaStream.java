// openai-java as its README shows streaming with the accumulator: createStreaming, every
// event fed to a ResponseAccumulator; it has no tool loop, so this prints what a user's
// loop would read: the calls in accumulator.response() (the response.completed response)
// and in reconstructedResponse() of an accumulator created withSnapshots (rebuilt from
// the streamed items).
//   java -cp "$(cat INSTALL/classpath.txt)" OpenAiJavaStream.java   (OPENAI_BASE_URL set)
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.helpers.ResponseAccumulator;
import com.openai.models.responses.FunctionTool;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import java.util.List;
import java.util.Map;

public class OpenAiJavaStream {
    static FunctionTool tool(String name, Map<String, Object> properties, List<String> required) {
        return FunctionTool.builder().name(name).strict(true)
                .parameters(FunctionTool.Parameters.builder()
                        .putAdditionalProperty("type", JsonValue.from("object"))
                        .putAdditionalProperty("properties", JsonValue.from(properties))
                        .putAdditionalProperty("required", JsonValue.from(required))
                        .putAdditionalProperty("additionalProperties", JsonValue.from(false))
                        .build())
                .build();
    }

    static String calls(Response response) {
        return response.output().stream().flatMap(item -> item.functionCall().stream())
                .map(call -> call.name() + "(" + call.arguments() + ")").toList().toString();
    }

    public static void main(String[] args) {
        var client = OpenAIOkHttpClient.builder().apiKey(System.getenv("OPENAI_API_KEY"))
                .baseUrl(System.getenv("OPENAI_BASE_URL")).maxRetries(0).build();
        var params = ResponseCreateParams.builder().model("gpt-5.1").input("Use a tool.")
                .addTool(tool("echo", Map.of("text", Map.of("type", "string")), List.of("text")))
                .addTool(tool("ping", Map.of(), List.of()))
                .build();
        var accumulator = ResponseAccumulator.create();
        var rebuilt = ResponseAccumulator.createWithSnapshots();
        try (var stream = client.responses().createStreaming(params)) {
            stream.stream().forEach(event -> {
                accumulator.accumulate(event);
                rebuilt.accumulate(event);
            });
        }
        System.out.println("response(): " + calls(accumulator.response()));
        System.out.println("reconstructedResponse(): " + calls(rebuilt.reconstructedResponse()));
    }
}
