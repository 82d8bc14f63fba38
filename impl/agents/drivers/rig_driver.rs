//! Driver: rig's OpenAI client (the Responses API is its default) behind an agent with
//! multi-turn streaming, pointed at serve.
//!
//! `rig_driver BASE_URL PROMPT` (built by `cargo build` at install): `OpenAIConfig::from_env()`
//! (the dummy `OPENAI_API_KEY`) `.with_base_url(BASE_URL).client()`, its completion model
//! (the Responses API unless configured otherwise), an `AgentBuilder` with two
//! `#[rig_tool]` tools, echo(text), which returns its text, and ping(), which takes
//! nothing, and `agent.prompt(PROMPT).max_turns(4).stream()`: rig runs each call and sends
//! the next request itself; the driver reads the stream to its final response.
use futures::StreamExt;
use rig::prelude::*;
use rig::providers::openai::OpenAIConfig;

/// Return the text unchanged.
#[rig::rig_tool]
fn echo(text: String) -> Result<String, rig::tool::ToolExecutionError> {
    Ok(text)
}

/// Say it ran: serve reads `responses-oracle-0` as a zero-argument call that ran.
#[rig::rig_tool]
fn ping() -> Result<String, rig::tool::ToolExecutionError> {
    Ok("responses-oracle-0".to_string())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let openai = OpenAIConfig::from_env()?.with_base_url(args[1].as_str()).client();
        let model = openai.completion("gpt-5.1");
        let agent = AgentBuilder::new(model).tool(Echo).tool(Ping).build();
        let mut stream = agent.prompt(args[2].as_str()).max_turns(4).stream();
        while let Some(item) = stream.next().await {
            if let MultiTurnStreamItem::FinalResponse(response) = item? {
                println!("{}", response.output());
            }
        }
        Ok(())
    })
}
