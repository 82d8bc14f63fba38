//! rig's README agent (`OpenAI::from_env()?.completion(..)`, `AgentBuilder`), given the
//! two tools every re-run script offers and streamed multi-turn as rig's agent docs show
//! (`agent.prompt(..).max_turns(4).stream()`: rig runs each call and sends the next
//! request itself).  `OPENAI_BASE_URL` (set by play.sh) points it at the mock.
//! Prints each tool run (from the tool itself), then the final text.
use futures::StreamExt;
use rig::prelude::*;
use rig::providers::openai::OpenAI;

/// Return the text unchanged.
#[rig::rig_tool(description = "Return the text unchanged.")]
fn echo(text: String) -> Result<String, rig::tool::ToolExecutionError> {
    println!("echo ran with {text:?}");
    Ok(text)
}

/// Answer that it ran.
#[rig::rig_tool(description = "Answer that it ran.")]
fn ping() -> Result<String, rig::tool::ToolExecutionError> {
    println!("ping ran");
    Ok("pong".to_string())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(run())
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    let model = OpenAI::from_env()?.completion("gpt-5.1");
    let agent = AgentBuilder::new(model).tool(Echo).tool(Ping).build();
    let mut stream = agent.prompt("Use a tool.").max_turns(4).stream();
    while let Some(item) = stream.next().await {
        if let MultiTurnStreamItem::FinalResponse(response) = item? {
            println!("final: {}", response.output());
        }
    }
    Ok(())
}
