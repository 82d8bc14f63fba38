// The AxonHub adapter builds against a checkout of AxonHub, which never enters this
// repository: `responses-oracle diff --candidate axonhub-stream --src DIR` (or
// AXONHUB_SRC) writes the go.mod the build uses outside the repository (this module,
// a require of github.com/looplj/axonhub/llm replaced by DIR/llm, and the llm module's
// own replace directives) and builds with `go build -modfile`; this file only marks
// the module root. impl/differential/go_candidates.py says how.
module responses-oracle/adapters/go/axonhub

go 1.26.0
