//! Checking a Rust client with responses-oracle serve from `cargo test`: serve plays the
//! quirk q08 to the client (here rig's agent with one tool), judges the client's next
//! request and exits (`--once`); its verdicts.json says whether the call ran and came back.
use futures::StreamExt;
use rig::prelude::*;
use rig::providers::openai::OpenAIConfig;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

/// Return the text unchanged.
#[rig::rig_tool]
fn echo(text: String) -> Result<String, rig::tool::ToolExecutionError> {
    Ok(text)
}

#[test]
fn the_client_runs_the_call_and_replays_it() {
    let out = std::env::temp_dir().join(format!("serve-{}", std::process::id()));
    let program = std::env::var("RESPONSES_ORACLE").unwrap_or("responses-oracle".into());
    let mut serve = Command::new(program).args(["serve", "q08", "--once", "--out"]).arg(&out)
        .stdout(Stdio::piped()).spawn().expect("responses-oracle on PATH");
    let mut line = String::new();
    BufReader::new(serve.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let base_url = line.split_whitespace().last().unwrap().to_string();
    // The client under test: an agent with one tool, streamed, the call run and sent back.
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let openai = OpenAIConfig::new("dummy").with_base_url(base_url).client();
        let model = openai.completion("gpt-5.1");
        let agent = AgentBuilder::new(model).tool(Echo).build();
        let mut stream = agent.prompt("Echo once.").max_turns(2).stream();
        while stream.next().await.is_some() {}
    });
    serve.wait().unwrap();
    let verdicts: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("verdicts.json")).unwrap()).unwrap();
    assert_eq!(verdicts["ok"], true, "{verdicts:#}");
}
