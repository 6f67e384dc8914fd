package scan

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"
)

// benchDocument builds a MaxResources-resource document mixing every type
// (clean and failing resources, a suppression, an unsupported type), in
// compact JSON like an export, under MaxInputBytes.
func benchDocument(tb testing.TB) []byte {
	b := []byte(`{"resources":[`)
	for i := 0; i < MaxResources; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		n := strconv.Itoa(i)
		switch i % 10 {
		case 0:
			b = append(b, `{"type":"s3_bucket","name":"bucket-`+n+`","public_read":false,"encrypted":true}`...)
		case 1:
			b = append(b, `{"type":"s3_bucket","name":"bucket-`+n+`","public_read":true,"encrypted":false}`...)
		case 2:
			b = append(b, `{"type":"security_group","name":"sg-`+n+`","ingress":[{"port":443,"cidr":"0.0.0.0/0"},{"port":22,"cidr":"10.0.0.0/8"}]}`...)
		case 3:
			b = append(b, `{"type":"security_group","name":"sg-`+n+`","ingress":[{"port":20,"to_port":30,"cidr":"0.0.0.0/0"},{"protocol":"-1","cidr":"::/0"}]}`...)
		case 4:
			b = append(b, `{"type":"iam_policy","name":"policy-`+n+`","actions":["s3:GetObject"],"resources":["arn:aws:s3:::b/*"]}`...)
		case 5:
			b = append(b, `{"type":"iam_policy","name":"policy-`+n+`","actions":["s3:*","iam:*"],"resources":["*"]}`...)
		case 6:
			b = append(b, `{"type":"database","name":"db-`+n+`","publicly_accessible":false,"encrypted":true}`...)
		case 7:
			b = append(b, `{"type":"database","name":"db-`+n+`","publicly_accessible":true,"encrypted":false,"suppress":[{"rule":"DB_UNENCRYPTED","reason":"legacy"}]}`...)
		case 8:
			b = append(b, `{"type":"security_group","name":"sg-`+n+`","ingress":[{"port":8080,"cidr":"0.0.0.0/0"},{"port":5432,"cidr":"::/0"}]}`...)
		case 9:
			b = append(b, `{"type":"lambda_function","name":"fn-`+n+`","runtime":"go1.x"}`...)
		}
	}
	b = append(b, `]}`...)
	if len(b) > MaxInputBytes {
		tb.Fatalf("benchmark document is %d bytes, over MaxInputBytes", len(b))
	}
	return b
}

func decodeMap(tb testing.TB, data []byte) {
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		tb.Fatal(err)
	}
}

func scanOK(tb testing.TB, data []byte) {
	if _, err := Scan(data); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkScanVsDecode times the whole scan (JSON reading, validation,
// checks, ranking, lines) against a baseline that only decodes the same
// bytes into map[string]any with encoding/json, alternating the two in one
// run so both see the same machine state. Target: scan/decode <= 1.
func BenchmarkScanVsDecode(b *testing.B) {
	data := benchDocument(b)
	b.SetBytes(int64(len(data)))
	var scan, decode time.Duration
	for b.Loop() {
		t0 := time.Now()
		scanOK(b, data)
		t1 := time.Now()
		decodeMap(b, data)
		scan += t1.Sub(t0)
		decode += time.Since(t1)
	}
	b.ReportMetric(float64(scan.Nanoseconds())/float64(b.N), "scan-ns/op")
	b.ReportMetric(float64(decode.Nanoseconds())/float64(b.N), "decode-ns/op")
	b.ReportMetric(float64(scan)/float64(decode), "scan/decode")
}

// BenchmarkScan and BenchmarkDecodeMap report each side's allocations.
func BenchmarkScan(b *testing.B) {
	data := benchDocument(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		scanOK(b, data)
	}
}

func BenchmarkDecodeMap(b *testing.B) {
	data := benchDocument(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		decodeMap(b, data)
	}
}
