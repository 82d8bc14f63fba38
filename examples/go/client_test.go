package yourclient

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAgainstServe plays OpenRouter's quirk q07 (arguments only in response.completed)
// to Ask; serve exits 1 if the call was dropped, run with other arguments or replayed
// wrongly, and verdicts.json says which.
func TestAgainstServe(t *testing.T) {
	out := t.TempDir()
	serve := exec.Command("responses-oracle", "serve", "q07", "--once", "--out", out,
		"--tool", "echo", "--args", `{"text": "{marker}"}`)
	stdout, err := serve.StdoutPipe()
	if err != nil || serve.Start() != nil {
		t.Fatal("cannot start responses-oracle serve", err)
	}
	line, _ := bufio.NewReader(stdout).ReadString('\n') // listening on http://127.0.0.1:PORT/v1
	if _, err := Ask(context.Background(), strings.Fields(line)[2], "Echo something."); err != nil {
		t.Error(err)
	}
	if err := serve.Wait(); err != nil {
		verdicts, _ := os.ReadFile(filepath.Join(out, "verdicts.json"))
		t.Fatalf("serve: %v\n%s", err, verdicts)
	}
}
