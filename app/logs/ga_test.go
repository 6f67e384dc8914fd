package logs

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Grouping accuracy (GA) on the labelled Loghub 2k samples: a line is right
// when the set of lines grouped with it is exactly the set of lines sharing
// its ground-truth EventId. The raw logs are fed as a user would paste them,
// with one default configuration. Floors sit slightly below the measured
// figures so that a regression fails the test.
var gaSystems = []struct {
	name  string
	floor float64
	drain float64 // Drain, tuned per system (Loghub benchmark), for reference
}{
	{"HDFS", 0.995, 0.998},
	{"Apache", 0.995, 1.000},
	{"OpenSSH", 0.99, 0.788},
	{"Zookeeper", 0.99, 0.967},
	{"BGL", 0.98, 0.963},
	{"Hadoop", 0.98, 0.948},
}

const gaAverageFloor = 0.99

// loghubPath is where the Loghub samples are, beside the repository.
var loghubPath = filepath.Join("..", "..", "..", "shared", "data", "loghub-2k")

func loghubDir(t testing.TB) string {
	dir := loghubPath
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("Loghub samples missing at %s (required in CI): %v", dir, err)
		}
		t.Skipf("Loghub samples not found at %s; skipping: %v", dir, err)
	}
	return dir
}

func TestGroupingAccuracy(t *testing.T) {
	dir := loghubDir(t)
	var sum, drainSum float64
	t.Logf("%-10s %7s %7s %7s", "system", "GA", "floor", "Drain")
	for _, sys := range gaSystems {
		ga := systemGA(t, dir, sys.name)
		sum += ga
		drainSum += sys.drain
		t.Logf("%-10s %7.3f %7.3f %7.3f", sys.name, ga, sys.floor, sys.drain)
		if ga < sys.floor {
			t.Errorf("%s: GA %.3f below floor %.3f", sys.name, ga, sys.floor)
		}
	}
	avg := sum / float64(len(gaSystems))
	t.Logf("%-10s %7.3f %7.3f %7.3f", "average", avg, gaAverageFloor, drainSum/float64(len(gaSystems)))
	if avg < gaAverageFloor {
		t.Errorf("average GA %.3f below floor %.3f", avg, gaAverageFloor)
	}
}

func systemGA(t testing.TB, dir, name string) float64 {
	raw, err := os.ReadFile(filepath.Join(dir, name, name+"_2k.log"))
	if err != nil {
		t.Fatal(err)
	}
	truth := readEventIDs(t, filepath.Join(dir, name, name+"_2k.log_structured.csv"))
	res, err := Analyze(context.Background(), raw, Options{IncludeAssignments: true})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(res.Assignments) != len(truth) {
		t.Fatalf("%s: %d lines analysed, %d labelled", name, len(res.Assignments), len(truth))
	}
	return groupingAccuracy(res.Assignments, truth)
}

func readEventIDs(t testing.TB, path string) []string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	col := -1
	for i, h := range rows[0] {
		if strings.TrimSpace(h) == "EventId" {
			col = i
		}
	}
	if col < 0 {
		t.Fatalf("%s: no EventId column", path)
	}
	ids := make([]string, 0, len(rows)-1)
	for _, r := range rows[1:] {
		ids = append(ids, r[col])
	}
	return ids
}

// groupingAccuracy is the share of lines whose predicted group is exactly
// their true group: a line is right when its (predicted, true) pair covers
// both its whole predicted group and its whole true group.
func groupingAccuracy(pred []int, truth []string) float64 {
	type pair struct {
		pred  int
		truth string
	}
	predSize := map[int]int{}
	trueSize := map[string]int{}
	pairSize := map[pair]int{}
	for i, p := range pred {
		predSize[p]++
		trueSize[truth[i]]++
		pairSize[pair{p, truth[i]}]++
	}
	right := 0
	for i, p := range pred {
		n := pairSize[pair{p, truth[i]}]
		if n == predSize[p] && n == trueSize[truth[i]] {
			right++
		}
	}
	return float64(right) / float64(len(pred))
}
