package scan

import "testing"

// TestCloudFormationPathsCountNoValue: a list element that is AWS::NoValue
// (!If [Cond, {...}, !Ref AWS::NoValue]) is gone once the template is
// read, but a finding's path names the element as the template writes
// it: the SSH rule second in SecurityGroupIngress was reported as [0],
// which is the rule the condition removes. An element whose presence an
// undecided condition leaves open keeps the path as read from there on.
func TestCloudFormationPathsCountNoValue(t *testing.T) {
	paths := func(input string) []string {
		var out []string
		for _, f := range mustScan(t, input).Findings {
			out = append(out, f.Rule+" "+f.Path)
		}
		return out
	}
	equalStrings(t, "decided", paths(`Parameters:
  Env:
    Type: String
    Default: prod
    AllowedValues: [dev, prod]
Conditions:
  IsDev: !Equals [!Ref Env, dev]
  IsProd: !Not [!Condition IsDev]
Resources:
  SG:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: x
      SecurityGroupIngress:
        - !If
          - IsDev
          - {IpProtocol: tcp, FromPort: 8080, ToPort: 8080, CidrIp: 10.0.0.0/8}
          - !Ref AWS::NoValue
        - !If [IsProd, {IpProtocol: tcp, FromPort: 22, ToPort: 22, CidrIp: 0.0.0.0/0}, !Ref AWS::NoValue]
        - !Ref AWS::NoValue
        - {IpProtocol: tcp, FromPort: 6379, ToPort: 6379, CidrIp: 0.0.0.0/0}
  Role:
    Type: AWS::IAM::Role
    Properties:
      AssumeRolePolicyDocument: {}
      ManagedPolicyArns:
        - !If [IsDev, arn:aws:iam::aws:policy/ReadOnlyAccess, !Ref AWS::NoValue]
        - arn:aws:iam::aws:policy/AdministratorAccess
      Policies:
        - !If [IsDev, {PolicyName: dev, PolicyDocument: {Statement: []}}, !Ref AWS::NoValue]
        - PolicyName: ops
          PolicyDocument:
            Statement:
              - !If [IsDev, {Effect: Allow, Action: "s3:GetObject", Resource: "*"}, !Ref AWS::NoValue]
              - {Effect: Allow, Action: "ec2:*", Resource: "arn:aws:ec2:*:*:instance/i-1"}
`), []string{
		"SG_ADMIN_PORT_OPEN Resources.SG.Properties.SecurityGroupIngress[1]",
		"IAM_FULL_ADMIN Resources.Role.Properties.ManagedPolicyArns[1]",
		"SG_DATA_PORT_OPEN Resources.SG.Properties.SecurityGroupIngress[3]",
		"IAM_SERVICE_WILDCARD Resources.Role.Properties.Policies[1].PolicyDocument.Statement[1].Action",
	})

	// Undecided: which of the first two elements is there depends on
	// the deployment, but one always is, so SSH is the template's third
	// in every outcome; Redis, read second when IsOpen holds, is the
	// template's second.
	equalStrings(t, "undecided", paths(`Parameters:
  Open:
    Type: String
Conditions:
  IsOpen: !Equals [!Ref Open, "yes"]
Resources:
  SG:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: x
      SecurityGroupIngress:
        - !If [IsOpen, {IpProtocol: tcp, FromPort: 8080, ToPort: 8080, CidrIp: 10.0.0.0/8}, !Ref AWS::NoValue]
        - !If [IsOpen, !Ref AWS::NoValue, {IpProtocol: tcp, FromPort: 80, ToPort: 80, CidrIp: 10.0.0.0/8}]
        - {IpProtocol: tcp, FromPort: 22, ToPort: 22, CidrIp: 0.0.0.0/0}
  Cache:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: x
      SecurityGroupIngress:
        - !If [IsOpen, {IpProtocol: tcp, FromPort: 8080, ToPort: 8080, CidrIp: 10.0.0.0/8}, !Ref AWS::NoValue]
        - {IpProtocol: tcp, FromPort: 6379, ToPort: 6379, CidrIp: 0.0.0.0/0}
`), []string{
		"SG_ADMIN_PORT_OPEN Resources.SG.Properties.SecurityGroupIngress[2]",
		"SG_DATA_PORT_OPEN Resources.Cache.Properties.SecurityGroupIngress[1]",
	})
}

// TestCloudFormationPathsLinear: the template indices of a list are
// worked out once for the whole list, not once per finding: a list of
// 20,000 ingress rules, every other one behind an undecided !If, has
// 20,000 findings, and counting each one's index from the start of the
// list (under each outcome of the condition) took two minutes.
func TestCloudFormationPathsLinear(t *testing.T) {
	const n = 4000
	for _, open := range []any{"no", unknown} {
		list := make([]any, n)
		for i := range list {
			rule := map[string]any{"IpProtocol": "tcp", "CidrIp": "0.0.0.0/0"}
			if i%2 == 0 {
				list[i] = map[string]any{"Fn::If": []any{"IsOpen", rule, map[string]any{"Ref": "AWS::NoValue"}}}
			} else {
				list[i] = rule
			}
		}
		tmpl := &cfnTemplate{params: map[string]any{"Open": open}, allowed: map[string][]any{},
			conditions: map[string]any{"IsOpen": map[string]any{"Fn::Equals": []any{map[string]any{"Ref": "Open"}, "yes"}}},
			resources: map[string]map[string]any{"SG": {"Type": "AWS::EC2::SecurityGroup",
				"Properties": map[string]any{"SecurityGroupIngress": list}}},
			decided: map[string]tri{}, deciding: map[string]bool{}, dropped: true}
		res := &Result{}
		for k := 0; k < n/2; k++ { // as read when IsOpen is false: the odd elements
			res.Findings = append(res.Findings, Finding{Path: "Resources.SG.Properties.SecurityGroupIngress[" + itoa(k) + "]"})
		}
		tmpl.templatePaths(res)
		want := "Resources.SG.Properties.SecurityGroupIngress[" + itoa(n-1) + "]"
		if open != "no" {
			want = "Resources.SG.Properties.SecurityGroupIngress[" + itoa(n/2-1) + "]" // the outcomes disagree: as read
		}
		if got := res.Findings[n/2-1].Path; got != want {
			t.Errorf("Open %v: last path %s, want %s", open, got, want)
		}
		if tmpl.noValues > 10*n {
			t.Errorf("Open %v: looked at %d elements for %d findings in a list of %d: want it linear", open, tmpl.noValues, n/2, n)
		}
	}
}
