package logs

import (
	"strings"
	"testing"
)

// Each recogniser takes the trace lines of its language, and not the
// ordinary log lines that look most like them.
func TestTraceLineRecognisers(t *testing.T) {
	for _, tc := range []struct {
		name  string
		is    func([]byte) bool
		trace []string
		not   []string
	}{
		{"go", goTraceLine,
			[]string{
				"goroutine 1 [running]:", "goroutine 18 [IO wait, 2 minutes]:", "[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x48f1a2]",
				"[recovered]", "panic({0x4a5b60?, 0x5b8f10?})", "main.main()", "main.(*Server).handle(0x0, {0x5a1b20, 0xc000012345})",
				"net/http.(*conn).serve(0xc000126000, {0x6c1e40, 0xc0000a8000})", "created by net/http.(*Server).Serve in goroutine 1",
				"...additional frames elided...", "exit status 2",
			},
			[]string{
				"goroutine leak detected (12 running)", "exit status unknown", "main.go:12: listening on :8080",
				"Started main.worker (pid 12)", "panic recovered in handler", "fmt.Println(x) is called here", "exit status 2 of 3 jobs",
			}},
		{"ruby", rubyFrame,
			[]string{"app/models/user.rb:10:in `save'", "app/controllers/users_controller.rb:5:in 'create'", "/usr/lib/ruby/3.4.0/benchmark.rb:311:in `realtime'"},
			[]string{"user.rb:10: warning: method redefined", "main.go:12: in the loop", "app.rb:in `save'", "Retrying in 'a while'", "x.rb:ten:in `save'"}},
		{"java more", moreLine,
			[]string{"... 12 more", "... 3 more  ", "... 45 common frames omitted"},
			[]string{"... more", "...  more", "... ", "... 12", "... 12 more frames", "... x more", "... 12 moreover"}},
		{"php", phpFrame,
			[]string{"#0 /app/src/Db.php(42): PDO->__construct('mysql:host=db', 'app', Object(SensitiveParameterValue))", "#3 {main}"},
			[]string{"#general channel is quiet", "# comment", "#12", "#1a /app/x.php(1): f()"}},
	} {
		for _, line := range tc.trace {
			if !tc.is([]byte(line)) {
				t.Errorf("%s: %q not taken for a trace line", tc.name, line)
			}
		}
		for _, line := range tc.not {
			if tc.is([]byte(line)) {
				t.Errorf("%s: %q taken for a trace line", tc.name, line)
			}
		}
	}
}

// A line of "... more" without a count, after an entry, is an ordinary
// line: it made the analysis fail.
func TestCountlessMoreLine(t *testing.T) {
	for _, in := range []string{
		"2024-03-18 09:14:08,002 ERROR [main] x: boom\n... more\n",
		"2024-03-18 09:14:08,002 ERROR [main] x: boom\n... \n...  more\n",
	} {
		if res := analyze(t, in, Options{}); res.Summary.Matched != 1 {
			t.Errorf("%q: summary %+v", in, res.Summary)
		}
	}
}

// A panic raised again while a deferred function handled it is one fatal
// entry: its "[recovered]" note, the panic(...) frame and the runtime's
// note of elided frames join it.
func TestRepanickedGoTraceIsOneEntry(t *testing.T) {
	in := "level=info msg=\"job started\" id=7\n" +
		"panic: boom [recovered]\n" +
		"\tpanic: boom again\n" +
		"\n" +
		"goroutine 1 [running]:\n" +
		"panic({0x4a5b60?, 0x5b8f10?})\n" +
		"\t/usr/local/go/src/runtime/panic.go:785 +0x132\n" +
		"main.main.func1()\n" +
		"\t/app/main.go:9 +0x49\n" +
		"...additional frames elided...\n" +
		"exit status 2\n" +
		"level=info msg=\"job started\" id=8\n"
	res := analyze(t, in, Options{})
	if s := res.Summary; s.Lines != 11 || s.BlankLines != 1 || s.Entries != 3 {
		t.Errorf("summary %+v, want 11 lines and a blank one in 3 entries", s)
	}
	if m, ok := matchAt(res, 2); !ok || m.Category != CategoryFatal || !strings.HasSuffix(m.Text, "exit status 2") {
		t.Errorf("line 2: %+v, want a fatal entry ending with \"exit status 2\"", m)
	}
}
