// Package candidate is the candidate protocol's Go end (docs/conformance-vectors.md,
// "The candidate protocol"): one JSON request per stdin line, one JSON answer per
// stdout line, in request order.
//
// Serve(parse) answers each request with parse(request) -> the result objects of its
// body; an error, or a panic inside parse, becomes that request's {"id", "error"}
// answer and serving goes on, so one stream that breaks the implementation under test
// is one finding, not the end of the run.  Stdin closing ends Serve.
//
// The adapters in the folders beside this one each drive one Go implementation:
// they turn a request into what that implementation reads (the SSE body of
// Request.SSEBody, as a server sends it), run it as its users run it, and write what
// the users then hold back as wire-shaped items (Item), which the harness compares.
package candidate

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// Tool is a tool an application whose model calls what the stream calls declares:
// Type "function" or "custom", and its name (the harness's declared_tools).
type Tool struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

// Request is one protocol request: a case id, the body's decoded events (kept as the
// JSON they were, byte for byte as the harness wrote them) and the declared tools.
type Request struct {
	ID     string            `json:"id"`
	Events []json.RawMessage `json:"events"`
	Tools  []Tool            `json:"tools"`
}

// Response is a result's response: its id and status ("" leaves either out).
type Response struct {
	ID     string `json:"id,omitempty"`
	Status string `json:"status,omitempty"`
}

// Entry is one output item of a result; Item is the wire-shaped item (a JSON object).
type Entry struct {
	Item any `json:"item"`
}

// Result is what the implementation holds for one response of the body.
type Result struct {
	Response Response `json:"response"`
	Items    []Entry  `json:"items"`
}

// Parse answers one request with the results of its body, or an error.
type Parse func(request Request) ([]Result, error)

type answer struct {
	ID      string    `json:"id"`
	Results *[]Result `json:"results,omitempty"` // absent in an error answer, [] when empty
	Error   string    `json:"error,omitempty"`
}

// SSEBody is the request's events as the SSE body a server sends: an "event:" line
// with the event's type and a "data:" line with the event, then a blank line.
func (r Request) SSEBody() []byte {
	var body []byte
	for _, event := range r.Events {
		var head struct {
			Type string `json:"type"`
		}
		_ = json.Unmarshal(event, &head) // an event without a type is sent without a name
		if head.Type != "" {
			body = append(body, "event: "+head.Type+"\n"...)
		}
		body = append(body, "data: "...)
		body = append(body, event...)
		body = append(body, "\n\n"...)
	}
	return body
}

// answerOne runs parse on one request; a panic is the request's error answer.
func answerOne(parse Parse, request Request) (out answer) {
	out.ID = request.ID
	defer func() {
		if crash := recover(); crash != nil {
			out.Results, out.Error = nil, fmt.Sprintf("panic: %v", crash)
		}
	}()
	results, err := parse(request)
	if err != nil {
		out.Error = err.Error()
		return out
	}
	if results == nil {
		results = []Result{}
	}
	out.Results = &results
	return out
}

// ServeOn answers the requests of in on out until in ends.
func ServeOn(parse Parse, in io.Reader, out io.Writer) error {
	reader := bufio.NewReaderSize(in, 1<<20)
	writer := bufio.NewWriter(out)
	for {
		line, err := reader.ReadBytes('\n')
		if len(line) > 0 && len(trimmed(line)) > 0 {
			var request Request
			var reply answer
			if decodeErr := json.Unmarshal(line, &request); decodeErr != nil {
				reply = answer{ID: request.ID, Error: "not a protocol request: " + decodeErr.Error()}
			} else {
				reply = answerOne(parse, request)
			}
			encoded, _ := json.Marshal(reply) // answers hold JSON values only
			writer.Write(append(encoded, '\n'))
			if flushErr := writer.Flush(); flushErr != nil {
				return flushErr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// Serve answers the requests on stdin until it closes; it exits 1 when stdout fails.
func Serve(parse Parse) {
	if err := ServeOn(parse, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "candidate:", err)
		os.Exit(1)
	}
}

func trimmed(line []byte) []byte {
	for len(line) > 0 && (line[len(line)-1] == '\n' || line[len(line)-1] == '\r' || line[len(line)-1] == ' ') {
		line = line[:len(line)-1]
	}
	return line
}
