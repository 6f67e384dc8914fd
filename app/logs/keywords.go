package logs

// Category is the kind of trouble a keyword signals. Severity order: fatal > error > reliability.
type Category string

const (
	CategoryFatal       Category = "fatal"
	CategoryError       Category = "error"
	CategoryReliability Category = "reliability"
)

func (c Category) severity() int {
	switch c {
	case CategoryFatal:
		return 3
	case CategoryError:
		return 2
	case CategoryReliability:
		return 1
	}
	return 0
}

// Keyword is one entry of the keyword table. Word is lowercase; a phrase has
// its words separated by one space and matches words separated by spaces,
// tabs or one hyphen ("timed out", "timed-out").
type Keyword struct {
	Word     string   `json:"word"`
	Category Category `json:"category"`
}

// keywordTable is the one list of keywords. Matching is case-insensitive on
// word boundaries, where letters, digits and underscore are word characters:
// "terror", "errorless" and "error_code" do not match, "level=error",
// "[ERROR]" and "\"level\":\"error\"" do. In CamelCase identifiers only the
// last hump counts ("NullPointerException" is an exception, "ErrorCount" is
// nothing), and before a final Error/Exception hump the humps are read as
// words too ("OutOfMemoryError" is out of memory). A phrase takes precedence
// over its words, so "connection refused" is reliability although "refused"
// alone is an error. A line reports its most severe match, the first one
// among equals. In the message, a keyword that names a key with an empty or
// null value ("err=<nil>", "errors=0") or counts none ("0 errors", "no
// errors") is no match (see dismissed).
var keywordTable = []Keyword{
	{"fatal", CategoryFatal},
	{"panic", CategoryFatal},
	{"panicked", CategoryFatal},
	{"kernel panic", CategoryFatal},
	{"emerg", CategoryFatal},
	{"emergency", CategoryFatal},
	{"crit", CategoryFatal},
	{"critical", CategoryFatal},
	{"segfault", CategoryFatal},
	{"segmentation fault", CategoryFatal},
	{"sigsegv", CategoryFatal},
	{"core dumped", CategoryFatal},
	{"out of memory", CategoryFatal},
	{"oom", CategoryFatal},
	{"oomkilled", CategoryFatal},
	{"oomkilling", CategoryFatal}, // Kubernetes' node-problem-detector: the kernel killed a process for memory
	{"stack overflow", CategoryFatal},
	{"crash", CategoryFatal},
	{"crashed", CategoryFatal},

	{"error", CategoryError},
	{"errors", CategoryError},
	{"err", CategoryError},
	{"exception", CategoryError},
	{"exceptions", CategoryError},
	{"traceback", CategoryError},
	{"fail", CategoryError},
	{"fails", CategoryError},
	{"failed", CategoryError},
	{"failure", CategoryError},
	{"failures", CategoryError},
	{"denied", CategoryError},
	{"permission denied", CategoryError},
	{"refused", CategoryError},
	{"abort", CategoryError},
	{"aborted", CategoryError},
	{"aborting", CategoryError},
	{"corrupt", CategoryError},
	{"corrupted", CategoryError},

	{"timeout", CategoryReliability},
	{"timeouts", CategoryReliability},
	{"timed out", CategoryReliability},
	{"retry", CategoryReliability},
	{"retries", CategoryReliability},
	{"retrying", CategoryReliability},
	{"retried", CategoryReliability},
	{"connection refused", CategoryReliability},
	{"connection reset", CategoryReliability},
	{"broken pipe", CategoryReliability},
	{"unavailable", CategoryReliability},
	{"unreachable", CategoryReliability},
	{"deadlock", CategoryReliability},
	{"deadlocked", CategoryReliability},
	{"throttled", CategoryReliability},
	{"throttling", CategoryReliability},
	{"too many requests", CategoryReliability},
	{"rate limited", CategoryReliability},
	{"backoff", CategoryReliability},
	{"crashloopbackoff", CategoryReliability}, // Kubernetes: restarting a crashing container, backing off
	{"imagepullbackoff", CategoryReliability}, // Kubernetes: retrying an image pull, backing off
	{"failedscheduling", CategoryReliability}, // Kubernetes: no node can take the pod
	{"evicted", CategoryReliability},          // Kubernetes: a pod put off its node for lack of a resource
	{"unhealthy", CategoryReliability},
	{"no server available", CategoryReliability}, // HAProxy: a backend with every server down
	{"is down", CategoryReliability},             // HAProxy: "Server be/web1 is DOWN"
	{"restart", CategoryReliability},
	{"restarting", CategoryReliability},
	{"restarted", CategoryReliability},
	{"killed", CategoryReliability},
	{"degraded", CategoryReliability},
}

// Keywords returns a copy of the keyword table, in table order.
func Keywords() []Keyword {
	return append([]Keyword(nil), keywordTable...)
}
