import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.helpers.ResponseAccumulator;
import com.openai.models.responses.*;
import java.io.*;
import java.nio.file.Path;
import java.util.*;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServeTest {
    record Echo(String text) { }

    @Test
    void theClientRunsTheCallAndReplaysIt(@TempDir Path out) throws Exception {
        var serve = new ProcessBuilder(System.getenv().getOrDefault("RESPONSES_ORACLE", "responses-oracle"),
                "serve", "q07", "--once", "--out", out.toString()).redirectError(out.resolve("log").toFile()).start();
        var baseUrl = new BufferedReader(new InputStreamReader(serve.getInputStream())).readLine().split(" ")[2];
        // The client under test: one streamed turn with a tool, the call run and replayed.
        var client = OpenAIOkHttpClient.builder().baseUrl(baseUrl).apiKey("dummy").maxRetries(0).build();
        List<ResponseInputItem> input = new ArrayList<>(List.of(ResponseInputItem.ofEasyInputMessage(
                EasyInputMessage.builder().role(EasyInputMessage.Role.USER).content("Echo once.").build())));
        for (int turn = 0; turn < 2; turn++) {
            var params = ResponseCreateParams.builder().model("gpt-5.1").inputOfResponse(input).addTool(Echo.class).build();
            var accumulator = ResponseAccumulator.create();
            try (var stream = client.responses().createStreaming(params)) { stream.stream().forEach(accumulator::accumulate); }
            for (var call : accumulator.response().output().stream().flatMap(i -> i.functionCall().stream()).toList()) {
                input.add(ResponseInputItem.ofFunctionCall(call));
                input.add(ResponseInputItem.ofFunctionCallOutput(ResponseInputItem.FunctionCallOutput.builder()
                        .callId(call.callId()).output(call.arguments(Echo.class).text()).build()));
            }
        }
        serve.waitFor();   // --once: serve judges and exits once the next request came
        var verdicts = new ObjectMapper().readTree(out.resolve("verdicts.json").toFile());
        assertEquals(true, verdicts.get("ok").asBoolean(), verdicts.toPrettyString());
    }
}
