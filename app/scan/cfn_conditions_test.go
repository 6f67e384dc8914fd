package scan

import (
	"slices"
	"strings"
	"testing"
)

// TestRelatedConditions: conditions that the defaults leave undecided are
// read under the values of the parameters they depend on, so relations
// between them hold (IsPrivate = !Not [IsPublic] is never true together
// with IsPublic). Checking each condition both ways on its own missed the
// first bucket (public only when IsPublic is true and IsPrivate false) and
// reported the second (public only when IsPublic is true, and then
// blocked).
func TestRelatedConditions(t *testing.T) {
	const head = "Parameters:\n  SiteMode: {Type: String, AllowedValues: [public, private]}\n" +
		"Conditions:\n  IsPublic: !Equals [!Ref SiteMode, public]\n  IsPrivate: !Not [!Condition IsPublic]\nResources:\n"
	for _, c := range []struct {
		name, resources string
		want            []string
	}{
		{"public when deployed public", "  Site:\n    Type: AWS::S3::Bucket\n    Properties:\n      AccessControl: !If [IsPublic, PublicRead, Private]\n" +
			"      PublicAccessBlockConfiguration:\n        BlockPublicAcls: !If [IsPrivate, true, false]\n        IgnorePublicAcls: !If [IsPrivate, true, false]\n",
			[]string{"S3_PUBLIC_READ AWS::S3::Bucket Site @ Resources.Site.Properties.AccessControl"}},
		{"never public and unblocked", "  Site:\n    Type: AWS::S3::Bucket\n    Properties:\n      AccessControl: !If [IsPublic, PublicRead, Private]\n" +
			"      PublicAccessBlockConfiguration:\n        BlockPublicAcls: !If [IsPrivate, false, true]\n", []string{}},
		// A bucket and its policy are read under the same values.
		{"linked policy", "  Site:\n    Type: AWS::S3::Bucket\n    Properties:\n      PublicAccessBlockConfiguration:\n        RestrictPublicBuckets: !If [IsPublic, false, true]\n" +
			"  SitePolicy:\n    Type: AWS::S3::BucketPolicy\n    Properties:\n      Bucket: !Ref Site\n      PolicyDocument:\n        Statement:\n" +
			"          - !If [IsPrivate, !Ref AWS::NoValue, {Effect: Allow, Principal: '*', Action: 's3:GetObject', Resource: '*'}]\n",
			[]string{"S3_PUBLIC_READ AWS::S3::Bucket Site @ Resources.SitePolicy.Properties.PolicyDocument.Statement[0] via SitePolicy"}},
		{"linked policy, blocked when public", "  Site:\n    Type: AWS::S3::Bucket\n    Properties:\n      PublicAccessBlockConfiguration:\n        RestrictPublicBuckets: !If [IsPublic, true, false]\n" +
			"  SitePolicy:\n    Type: AWS::S3::BucketPolicy\n    Properties:\n      Bucket: !Ref Site\n      PolicyDocument:\n        Statement:\n" +
			"          - !If [IsPrivate, !Ref AWS::NoValue, {Effect: Allow, Principal: '*', Action: 's3:GetObject', Resource: '*'}]\n", []string{}},
	} {
		res := scanAt(t, []byte(head+c.resources))
		equalStrings(t, c.name, findingLines(res.Findings), c.want)
		for _, f := range res.Findings {
			if !strings.Contains(f.Message, "could not be decided; both outcomes were checked") {
				t.Errorf("%s: the message does not say the condition was undecided: %s", c.name, f.Message)
			}
		}
	}
}

// TestConditionValues: without AllowedValues a parameter takes each value
// a condition compares it with, and one value none does; pseudo parameters
// too. Conditions on the same parameter exclude each other.
func TestConditionValues(t *testing.T) {
	tmpl := "Parameters:\n  Env: {Type: String}\nConditions:\n  IsProd: !Equals [!Ref Env, prod]\n  IsDev: !Equals [dev, !Ref Env]\n" +
		"  InUS: !Equals [!Ref 'AWS::Region', us-east-1]\n  ProdInUS: !And [!Condition IsProd, !Condition InUS]\nResources:\n" +
		// Public only in dev, and blocked in dev: never reported.
		"  A:\n    Type: AWS::S3::Bucket\n    Properties:\n      AccessControl: !If [IsDev, PublicRead, Private]\n" +
		"      PublicAccessBlockConfiguration: {BlockPublicAcls: !If [IsDev, true, false]}\n" +
		// Public in prod, blocked in dev: reported (prod is a value of Env).
		"  B:\n    Type: AWS::S3::Bucket\n    Properties:\n      AccessControl: !If [IsProd, PublicRead, Private]\n" +
		"      PublicAccessBlockConfiguration: {BlockPublicAcls: !If [IsDev, true, false]}\n" +
		// Public in prod in us-east-1, blocked in prod: never reported.
		"  C:\n    Type: AWS::S3::Bucket\n    Properties:\n      AccessControl: !If [ProdInUS, PublicRead, Private]\n" +
		"      PublicAccessBlockConfiguration: {BlockPublicAcls: !If [IsProd, true, false]}\n" +
		// Public when neither prod nor dev (another value), unblocked then.
		"  D:\n    Type: AWS::S3::Bucket\n    Properties:\n      AccessControl: !If [IsProd, Private, !If [IsDev, Private, PublicRead]]\n" +
		"      PublicAccessBlockConfiguration: {BlockPublicAcls: !If [IsProd, true, !If [IsDev, true, false]]}\n"
	equalStrings(t, "findings", findingLines(scanAt(t, []byte(tmpl)).Findings), []string{
		"S3_PUBLIC_READ AWS::S3::Bucket B @ Resources.B.Properties.AccessControl",
		"S3_PUBLIC_READ AWS::S3::Bucket D @ Resources.D.Properties.AccessControl",
	})
}

// TestConditionCasesBounded: past MaxConditionCases combinations, as when
// a condition depends on what only the deployment knows, each undecided
// condition is taken true everywhere, then false everywhere: relations are
// not followed, and the findings of both readings are reported.
func TestConditionCasesBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("Parameters:\n")
	for i := 0; i < 5; i++ { // 2^5 = 32 combinations
		b.WriteString("  P" + itoa(i) + ": {Type: String, AllowedValues: [a, b]}\n")
	}
	b.WriteString("Conditions:\n  IsPublic: !Equals [!Ref P0, a]\n  IsPrivate: !Not [!Condition IsPublic]\n")
	for i := 1; i < 5; i++ {
		b.WriteString("  C" + itoa(i) + ": !Equals [!Ref P" + itoa(i) + ", a]\n")
	}
	b.WriteString("Resources:\n  Site:\n    Type: AWS::S3::Bucket\n    Properties:\n      AccessControl: !If [IsPublic, PublicRead, Private]\n" +
		"      PublicAccessBlockConfiguration:\n        BlockPublicAcls: !If [IsPrivate, false, true]\n" +
		"      Tags: [{Key: a, Value: !If [C1, x, y]}, {Key: b, Value: !If [C2, x, y]}, {Key: c, Value: !If [C3, x, y]}, {Key: d, Value: !If [C4, x, y]}]\n")
	// Both true: public and unblocked, a reading no deployment has. The
	// finding and a warning of the result say the limit was met (it was
	// silent: a clean result past it looked as exact as any).
	over := scanAt(t, []byte(b.String()))
	equalStrings(t, "over the bound", findingLines(over.Findings), []string{
		"S3_PUBLIC_READ AWS::S3::Bucket Site @ Resources.Site.Properties.AccessControl"})
	const note = "conditions C1, C2, C3, C4, IsPrivate and IsPublic could not be decided and the values of the parameters they depend on have more than 16 combinations (the scanner's limit): checked all true, then all false"
	if !strings.Contains(over.Findings[0].Message, "("+note+")") {
		t.Errorf("over the bound, message: %s", over.Findings[0].Message)
	}
	if len(over.Warnings) != 1 || !strings.HasPrefix(over.Warnings[0].Message, note+". A finding that needs some of them true and others false may be missed") ||
		over.Warnings[0].Count != 1 || len(over.Warnings[0].Resources) != 1 || over.Warnings[0].Resources[0] != "Site" {
		t.Errorf("over the bound, warnings: %+v", over.Warnings)
	}
	// The same when the bucket is clean in both readings: the warning is
	// all that says the scan was less exact.
	clean := strings.Replace(b.String(), "AccessControl: !If [IsPublic, PublicRead, Private]", "AccessControl: Private", 1)
	if res := scanAt(t, []byte(clean)); len(res.Findings) != 0 || len(res.Warnings) != 1 {
		t.Errorf("clean over the bound: %v %+v", findingLines(res.Findings), res.Warnings)
	}
	// Under the bound the same bucket is not reported, and nothing is said.
	under := strings.Replace(b.String(), "Tags: [{Key: a, Value: !If [C1, x, y]}, {Key: b, Value: !If [C2, x, y]}, ", "Tags: [", 1)
	underRes := scanAt(t, []byte(under))
	equalStrings(t, "under the bound", findingLines(underRes.Findings), []string{})
	if underRes.Warnings != nil {
		t.Errorf("under the bound, warnings: %+v", underRes.Warnings)
	}
	// An import is known only when deploying.
	imported := "Conditions:\n  IsPublic: !Equals [!ImportValue mode, public]\n  IsPrivate: !Not [!Condition IsPublic]\n" +
		"Resources:\n  Site:\n    Type: AWS::S3::Bucket\n    Properties:\n      AccessControl: !If [IsPublic, PublicRead, Private]\n" +
		"      PublicAccessBlockConfiguration:\n        BlockPublicAcls: !If [IsPrivate, false, true]\n"
	equalStrings(t, "import", findingLines(scanAt(t, []byte(imported)).Findings), []string{
		"S3_PUBLIC_READ AWS::S3::Bucket Site @ Resources.Site.Properties.AccessControl"})
}

// TestConditionReadingsBounded: a 1.3 MB template of 4,600 buckets, each
// on four parameters of two values (16 readings), costs about what it
// costs with the parameters' defaults given: readings are worked out once
// for resources that share their conditions, and the readings beyond two
// stop at MaxConditionRereadBytes (the rest are read all true, then all
// false).
func TestConditionReadingsBounded(t *testing.T) {
	tmpl := func(defaults bool) []byte {
		var b strings.Builder
		b.WriteString("Parameters:\n")
		for i := 0; i < 4; i++ {
			def := ""
			if defaults {
				def = ", Default: b"
			}
			b.WriteString("  P" + itoa(i) + ": {Type: String, AllowedValues: [a, b]" + def + "}\n")
		}
		b.WriteString("Conditions:\n")
		for i := 0; i < 4; i++ {
			b.WriteString("  C" + itoa(i) + ": !Equals [!Ref P" + itoa(i) + ", a]\n")
		}
		b.WriteString("Resources:\n")
		for i := 0; b.Len() < MaxInputBytes/4; i++ {
			b.WriteString("  B" + itoa(i) + ":\n    Type: AWS::S3::Bucket\n    Properties:\n      AccessControl: !If [C0, PublicRead, Private]\n" +
				"      PublicAccessBlockConfiguration: {BlockPublicAcls: !If [C1, true, false], IgnorePublicAcls: !If [C2, true, false]}\n" +
				"      Tags: [{Key: k, Value: !If [C3, x, y]}]\n")
		}
		return []byte(b.String())
	}
	decided := allocated(func() { scanAt(t, tmpl(true)) })
	res := scanBounded(t, "undecided", tmpl(false), 2*decided>>20)
	if len(res.Findings) == 0 {
		t.Errorf("no finding: the first buckets are public when C0 is true and C1, C2 false")
	}
	// The buckets past the bytes' limit are named in one warning.
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Message, "past the scanner's limit (1.25 MiB)") ||
		res.Warnings[0].Count == 0 || len(res.Warnings[0].Resources) != min(res.Warnings[0].Count, MaxNotCheckedAddresses) {
		t.Errorf("warnings: %+v", res.Warnings)
	}
}

// TestCFNUndeclaredRef: a Ref to a name the template declares neither as
// a parameter nor as a resource (a typo, a parameter removed) makes
// CloudFormation refuse the template. The scan used to read it as unknown
// without a word, so the result looked like a deployable template's; now
// a warning names the Refs and where they are, and the findings are as
// before. A template with a Transform (SAM) is left alone: the transform
// declares names of its own.
func TestCFNUndeclaredRef(t *testing.T) {
	tmpl := `AWSTemplateFormatVersion: "2010-09-09"
Parameters:
  Env:
    Type: String
    Default: prod
Resources:
  WebSG:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: web
      VpcId: !Ref VpcId
      SecurityGroupIngress:
        - {IpProtocol: tcp, FromPort: 22, ToPort: 22, CidrIp: 0.0.0.0/0}
  Logs:
    Type: AWS::S3::Bucket
    Properties:
      BucketName: !Sub "${Env}-logs"
      Tags: [{Key: region, Value: !Ref AWS::Region}, {Key: env, Value: !Ref Env}]
Outputs:
  Group:
    Value: !Ref WebSecurityGroup
  Bucket:
    Value: !Ref Logs
`
	res := mustScan(t, tmpl)
	if len(res.Findings) != 1 || res.Findings[0].Rule != "SG_ADMIN_PORT_OPEN" || res.Findings[0].Resource.Name != "WebSG" || res.Findings[0].Line != 7 {
		t.Errorf("findings %+v", res.Findings)
	}
	if len(res.Warnings) != 1 || res.Warnings[0].Message != "Ref to a name the template does not declare (VpcId, WebSecurityGroup): CloudFormation refuses the template; the scan read it as unknown" ||
		!slices.Equal(res.Warnings[0].Resources, []string{"WebSG", "Outputs.Group"}) || res.Warnings[0].Count != 2 {
		t.Errorf("warnings %+v", res.Warnings)
	}
	sam := mustScan(t, "Transform: AWS::Serverless-2016-10-31\n"+tmpl)
	if len(sam.Warnings) != 0 {
		t.Errorf("with a Transform: warnings %+v", sam.Warnings)
	}
}
