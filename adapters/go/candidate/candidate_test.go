package candidate

import (
	"errors"
	"strings"
	"testing"
)

// serveLines runs ServeOn with parse on the input lines and returns the answer lines.
func serveLines(t *testing.T, parse Parse, input string) []string {
	t.Helper()
	var out strings.Builder
	if err := ServeOn(parse, strings.NewReader(input), &out); err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
}

func TestEachRequestGetsOneAnswerInOrderAndAFailureIsOnlyItsOwn(t *testing.T) {
	parse := func(request Request) ([]Result, error) {
		switch request.ID {
		case "c1":
			return nil, errors.New("cannot parse")
		case "c2":
			panic("index out of range")
		}
		return []Result{{Response: Response{ID: "resp_1", Status: "completed"},
			Items: []Entry{{Item: map[string]any{"type": "function_call", "call_id": "call_1"}}}}}, nil
	}
	got := serveLines(t, parse, `{"id":"c0","events":[],"tools":[]}`+"\n\n"+
		`{"id":"c1","events":[]}`+"\n"+`{"id":"c2","events":[]}`+"\n"+`{"id":"c3","events":[]}`)
	want := []string{
		`{"id":"c0","results":[{"response":{"id":"resp_1","status":"completed"},"items":[{"item":{"call_id":"call_1","type":"function_call"}}]}]}`,
		`{"id":"c1","error":"cannot parse"}`,
		`{"id":"c2","error":"panic: index out of range"}`,
		`{"id":"c3","results":[{"response":{"id":"resp_1","status":"completed"},"items":[{"item":{"call_id":"call_1","type":"function_call"}}]}]}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestANoResultAnswerIsAnEmptyListNotAnError(t *testing.T) {
	got := serveLines(t, func(Request) ([]Result, error) { return nil, nil }, `{"id":"c0","events":[]}`)
	if got[0] != `{"id":"c0","results":[]}` {
		t.Fatalf("got %s", got[0])
	}
}

func TestTheSSEBodyNamesEachEventAndKeepsItsBytes(t *testing.T) {
	var request Request
	got := serveLines(t, func(r Request) ([]Result, error) { request = r; return nil, nil },
		`{"id":"c0","events":[{"type":"response.created","response":{"id":"r"}},{"delta":"x"}]}`)
	if len(got) != 1 {
		t.Fatalf("got %v", got)
	}
	want := "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"r\"}}\n\n" +
		"data: {\"delta\":\"x\"}\n\n"
	if string(request.SSEBody()) != want {
		t.Fatalf("got %q", request.SSEBody())
	}
}

func TestALineThatIsNotARequestIsAnErrorAnswer(t *testing.T) {
	got := serveLines(t, func(Request) ([]Result, error) { return nil, nil }, "not json\n")
	if !strings.HasPrefix(got[0], `{"id":"","error":"not a protocol request: `) {
		t.Fatalf("got %s", got[0])
	}
}
