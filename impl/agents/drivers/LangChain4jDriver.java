// Driver: LangChain4j's OpenAiResponsesStreamingChatModel behind AiServices, pointed at serve.
//
// `java -cp @CLASSPATH LangChain4jDriver.java BASE_URL PROMPT` (the JDK's source-file mode;
// the class path is the one `mvn dependency:build-classpath` wrote at install). An
// AiServices assistant whose method returns a TokenStream (streaming), with two @Tool
// methods: echo(text), which returns its text, and ping(), which takes nothing. AiServices
// runs the tool loop itself: it runs each call and sends the next request.
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.model.openai.OpenAiResponsesStreamingChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.TokenStream;
import java.util.concurrent.CompletableFuture;

public class LangChain4jDriver {
    interface Assistant {
        TokenStream chat(String prompt);
    }

    public static class Tools {
        @Tool("Return the text unchanged.")
        public String echo(@P(name = "text", value = "the text to return") String text) {
            return text;
        }

        @Tool("Answer pong.")
        public String ping() {
            return "pong";
        }
    }

    public static void main(String[] args) throws Exception {
        var model = OpenAiResponsesStreamingChatModel.builder()
                .baseUrl(args[0]).apiKey(System.getenv("OPENAI_API_KEY")).modelName("gpt-5.1")
                .build();
        var assistant = AiServices.builder(Assistant.class)
                .streamingChatModel(model).tools(new Tools()).build();
        var answer = new CompletableFuture<String>();
        assistant.chat(args[1])
                .onPartialResponse(part -> { })
                .onCompleteResponse(response -> answer.complete(response.aiMessage().text()))
                .onError(answer::completeExceptionally)
                .start();
        System.out.println(answer.get());
    }
}
