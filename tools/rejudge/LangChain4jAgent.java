// LangChain4j as its tutorial on AI Services shows tools and streaming: an AiServices
// assistant on OpenAiResponsesStreamingChatModel (the Responses API) whose method returns
// a TokenStream, with two @Tool methods; AiServices runs each call and sends the next
// request itself (the parameter is named in @P: source-file mode keeps no parameter
// names).  Prints each tool execution as LangChain4j reports it, then the answer.
//   java -cp "$(cat INSTALL/classpath.txt)" LangChain4jAgent.java   (OPENAI_BASE_URL set)
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.model.openai.OpenAiResponsesStreamingChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.TokenStream;
import java.util.concurrent.CompletableFuture;

public class LangChain4jAgent {
    interface Assistant {
        TokenStream chat(String prompt);
    }

    public static class Tools {
        @Tool("Return the text unchanged.")
        public String echo(@P(name = "text", value = "the text to return") String text) {
            System.out.println("RAN echo " + text);
            return text;
        }

        @Tool("Answer that it ran.")
        public String ping() {
            System.out.println("RAN ping");
            return "pong";
        }
    }

    public static void main(String[] args) throws Exception {
        var model = OpenAiResponsesStreamingChatModel.builder()
                .baseUrl(System.getenv("OPENAI_BASE_URL"))
                .apiKey(System.getenv("OPENAI_API_KEY"))
                .modelName("gpt-5.1")
                .build();
        var assistant = AiServices.builder(Assistant.class)
                .streamingChatModel(model).tools(new Tools()).build();
        var answer = new CompletableFuture<String>();
        assistant.chat("Use a tool.")
                .onPartialResponse(part -> { })
                .onToolExecuted(run -> System.out.println("TOOL " + run.request().arguments()
                        + " -> " + run.result()))
                .onCompleteResponse(response -> answer.complete(response.aiMessage().text()))
                .onError(answer::completeExceptionally)
                .start();
        System.out.println("FINAL " + answer.get());
    }
}
