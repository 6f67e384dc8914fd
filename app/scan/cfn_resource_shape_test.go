package scan

import "testing"

// TestCloudFormationResourceShape: a resource whose Type is not a string,
// or that is not a mapping, was refused as "Type: is required" although
// it had one; the problem now says what is there.
func TestCloudFormationResourceShape(t *testing.T) {
	tests := []struct {
		name, input string
		want        []string
	}{
		{"no Type", "Resources:\n  A: {Properties: {}}\n", []string{"Resources.A.Type: is required"}},
		{"an empty Type", "Resources:\n  A: {Type: ''}\n", []string{"Resources.A.Type: must not be empty"}},
		{"a number", "Resources:\n  A: {Type: 5}\n", []string{"Resources.A.Type: must be a string naming the resource type (AWS::S3::Bucket), got number 5"}},
		{"an infinite number", `{"Resources":{"A":{"Type":1e999}}}`, []string{"Resources.A.Type: must be a string naming the resource type (AWS::S3::Bucket), got number +Inf"}},
		{"a list", "Resources:\n  A: {Type: [AWS::S3::Bucket]}\n", []string{"Resources.A.Type: must be a string naming the resource type (AWS::S3::Bucket), got an array"}},
		{"a resource that is a string", "Resources:\n  A: AWS::S3::Bucket\n", []string{`Resources.A: must be a mapping with a Type, got string "AWS::S3::Bucket"`}},
		{"a null resource", `{"Resources":{"A":null}}`, []string{"Resources.A: must be a mapping with a Type, got null"}},
	}
	for _, tt := range tests {
		equalStrings(t, tt.name, problemsOf(t, tt.input), tt.want)
	}
}
