# Reads `go test -bench` output and prints the table of
# views/docs/performance.md with this run's figures. A benchmark line is its
# name, N, then value/unit pairs.
/^Benchmark/ {
  name = $1; sub(/-[0-9]+$/, "", name)
  for (i = 3; i < NF; i += 2) m[name, $(i + 1)] = $i
}
function f(name, unit, fmt) { return ((name, unit) in m) ? sprintf(fmt, m[name, unit]) : "—" }
END {
  print "| What | Baseline (same run) | Figure | Target |"
  print "|---|---|---|---|"
  printf "| Public API `GET /v1/products` | a bare Echo handler, same body | %s the bare throughput; p99 %s at 1,000 req/s | ≥ 0.8×; p99 < 5 ms |\n", f("BenchmarkPublicAPI", "throughput_ratio", "%.2f×"), f("BenchmarkPublicAPI", "p99_ms@1k/s", "%.2f ms")
  printf "| Gateway added latency (non-streamed) | a bare `httputil.ReverseProxy` hop | %s the hop's added p50 (%s when the upstream sends the Messages API's documented headers, which the hop forwards); added p50 %s, p99 %s; %s the hop's throughput at 32 connections | ≤ 1.5× the hop; ≥ 0.7× at 32 connections, p99 within 5 ms; p50 < 0.5 ms, p99 < 2 ms |\n", f("BenchmarkGatewayAddedLatency", "gateway/hop", "%.2f×"), f("BenchmarkGatewayAddedLatency", "gateway/hop_provider_headers", "%.2f×"), f("BenchmarkGatewayAddedLatency", "added_p50_ms", "+%.3f ms"), f("BenchmarkGatewayAddedLatency", "added_p99_ms", "+%.3f ms"), f("BenchmarkGatewayAddedLatency", "throughput_ratio", "%.2f×")
  printf "| Log analyzer, 200,000 lines of the six Loghub samples | splitting the same text into lines | %s the time on one core, %s on two | at most 60%% of the 48–52× of the issue's day, about 29–31×: twice the lines per second of Loki's Drain on one core |\n", f("BenchmarkAnalyze/procs=1", "ratio", "%.1f×"), f("BenchmarkAnalyze/procs=2", "ratio", "%.1f×")
  printf "| Scanner, 50,000 resources of our format | `encoding/json` into generic maps | %s the time | ≤ 1× |\n", f("BenchmarkScanVsDecode", "scan/decode", "%.2f×")
  printf "| Scanner, a 50,000-resource Terraform plan | `encoding/json` into `any` | %s the time | ≤ 1.5× |\n", f("BenchmarkPlanVsDecode", "scan/decode", "%.2f×")
  printf "| Scanner, 2,000 Terraform resources with modules, as source | the same resources as a plan | %s the time | well under a second |\n", f("BenchmarkHCLVsPlan", "source/plan", "%.1f×")
  printf "| Rate limiter (memory), one decision | a mutex+map counter | %s allowed, %s refused | |\n", f("BenchmarkMemoryAllow/allowed", "x-baseline", "%.1f×"), f("BenchmarkMemoryAllow/refused", "x-baseline", "%.1f×")
  printf "| Sustained load, 200 keys in 40 organizations, API + scanner + gateway | none | %s, %s errors, p50 %s, p99 %s, peak heap %s | 0 errors |\n", f("BenchmarkSustainedLoad", "req/s", "%.0f req/s"), f("BenchmarkSustainedLoad", "errors", "%.0f"), f("BenchmarkSustainedLoad", "p50_ms", "%.1f ms"), f("BenchmarkSustainedLoad", "p99_ms", "%.1f ms"), f("BenchmarkSustainedLoad", "peak_heap_MiB", "%.0f MiB")
}
