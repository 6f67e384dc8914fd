package redact

import (
	"strings"
	"testing"
)

// Secrets as they appear in real inputs; none may survive masking.
var planted = map[string]string{
	"aws_access_key":  "AKIAIOSFODNN7EXAMPLE",
	"aws_secret":      "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
	"pem":             "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq98sT0\nq0x6YmVsbG8=\n-----END RSA PRIVATE KEY-----",
	"postgres":        "s3cr3t-Pg-pass",
	"bearer":          "abcDEF123ghiJKL456mnoPQR",
	"ppk":             "ppk_9xHgeqdLH4oZD7tOtQ7fPRGMqDaqoL3VypIb",
	"jwt":             "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c3JfMSJ9.c2lnbmF0dXJlLXZhbHVl",
	"master_password": "Sup3rS3cretMaster!",
	"gcp":             "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
	"azure_account":   "dGhpc2lzYXZlcnlsb25nYXp1cmVzdG9yYWdla2V5dmFsdWUxMjM0NTY3ODkw+/abcd==",
	"github":          "ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij",
	"client_secret":   "Xy7-client-secret-value",
}

func TestText(t *testing.T) {
	cases := []struct {
		name, in string
		secrets  []string // must be gone
		keep     []string // must stay
		kinds    []string // kinds masked, in order
	}{
		{"aws pair in logfmt", "level=info access_key_id=AKIAIOSFODNN7EXAMPLE aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY region=eu-west-1",
			[]string{planted["aws_access_key"], planted["aws_secret"]}, []string{"region=eu-west-1", "level=info"}, []string{"aws_access_key", "key"}},
		{"aws secret alone", "creds " + planted["aws_secret"] + " used", []string{planted["aws_secret"]}, []string{"creds", "used"}, []string{"aws_secret_key"}},
		{"path kept", "chdir(/bgl/apps/SWL/performance/MINIBEN///2005.09.20) failed; key /K7MDENGbPxRfiCYEXAMPLEKEYwJalrXUtnFEMI/ used", []string{"/K7MDENGbPxRfiCYEXAMPLEKEYwJalrXUtnFEMI/"},
			[]string{"chdir(/bgl/apps/SWL/performance/MINIBEN///2005.09.20) failed; key <REDACTED_AWS_SECRET_KEY_1> used"}, nil},
		{"hex digest kept", "commit 3f786850e387550fdab836ed7e6dc881de23001b", nil, []string{"3f786850e387550fdab836ed7e6dc881de23001b"}, nil},
		{"pem", "key:\n" + planted["pem"] + "\nend", []string{"MIIEowIBAAKCAQEA7bq98sT0", "PRIVATE KEY"}, []string{"key:", "end"}, []string{"private_key"}},
		{"pem escaped in json", `{"private_key":"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n"}`, []string{"MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"}, nil, nil},
		{"pem cut short", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ", []string{"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ"}, nil, []string{"private_key"}},
		{"postgres url", "connecting to postgres://app:" + planted["postgres"] + "@db.internal:5432/prod", []string{planted["postgres"]}, []string{"postgres://app:", "@db.internal:5432/prod"}, []string{"url_password"}},
		{"bearer", "Authorization: Bearer " + planted["bearer"], []string{planted["bearer"]}, []string{"Authorization"}, nil},
		{"bearer jwt", "Authorization: Bearer " + planted["jwt"], []string{planted["jwt"], "c2lnbmF0dXJl"}, nil, []string{"jwt"}},
		{"ppk", "key=" + planted["ppk"] + " rejected", []string{planted["ppk"]}, []string{"rejected"}, []string{"parapet_key"}},
		{"json property", `{"MasterUserPassword": "` + planted["master_password"] + `", "Engine": "postgres"}`, []string{planted["master_password"]}, []string{`"Engine": "postgres"`}, []string{"password"}},
		{"yaml property", "MasterUsername: admin\nMasterUserPassword: " + planted["master_password"] + "\n", []string{planted["master_password"]}, []string{"MasterUsername: admin"}, []string{"password"}},
		{"yaml reference kept", "MasterUserPassword: !Ref DBPassword\n", nil, []string{"!Ref DBPassword"}, nil},
		{"json reference kept", `"MasterUserPassword": {"Ref": "DBPassword"}`, nil, []string{`{"Ref": "DBPassword"}`}, nil},
		{"hcl", "  password = \"" + planted["master_password"] + "\"\n  username = \"admin\"", []string{planted["master_password"]}, []string{`username = "admin"`}, nil},
		{"hcl reference kept", "  password = var.db_password", nil, []string{"var.db_password"}, nil},
		{"gcp", "key=" + planted["gcp"], []string{planted["gcp"]}, nil, []string{"gcp_api_key"}},
		{"azure connection string", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + planted["azure_account"] + ";EndpointSuffix=core.windows.net",
			[]string{planted["azure_account"], "dGhpc2lz"}, []string{"AccountName=acct", "EndpointSuffix=core.windows.net"}, nil},
		{"ado connection string", "Server=tcp:db;Database=app;User Id=sa;Password=Pa55word!;", []string{"Pa55word!"}, []string{"Database=app"}, []string{"password"}},
		{"connection string password with a blank", "Server=tcp:db;User Id=sa;Password=Conn Pw 42;Database=app; x;Pwd=ConnPw2 next=1;", []string{"Conn Pw 42", "ConnPw2"},
			[]string{"Server=tcp:db;User Id=sa;Password=<REDACTED_PASSWORD_1>;Database=app; x;Pwd=<REDACTED_PASSWORD_2> next=1;"}, nil},
		{"kubernetes secret", "apiVersion: v1\ndata:\n  username: YWRtaW4=\n  tls.key: \"TFMwdExTMUNSVWRKVGc9PQ==\"\nkind: Secret\nstringData:\n  config.yaml: |\n    user: a\n    pw: K8sBlockPw1\ntype: Opaque\n---\nkind: ConfigMap\ndata:\n  level: info\n",
			[]string{"YWRtaW4=", "TFMwdExTMUNSVWRKVGc9PQ==", "K8sBlockPw1"},
			[]string{"data:\n  username: <REDACTED_SECRET_1>\n  tls.key: \"<REDACTED_SECRET_2>\"\nkind: Secret\nstringData:\n  config.yaml: |\n    <REDACTED_SECRET_3>\n    <REDACTED_SECRET_4>\ntype: Opaque\n---\nkind: ConfigMap\ndata:\n  level: info\n"}, nil},
		{"kubernetes secret in json", `{"apiVersion":"v1","kind":"Secret","data":{"username":"YWRtaW4=","db-url":"cG9zdGdyZXM6Ly8="},"type":"Opaque"}`, []string{"YWRtaW4=", "cG9zdGdyZXM6Ly8="},
			[]string{`"data":{"username":"<REDACTED_SECRET_1>","db-url":"<REDACTED_SECRET_2>"},"type":"Opaque"}`}, nil},
		{"other kinds' data kept", "kind: ConfigMap\ndata:\n  level: info\n---\n{\"kind\":\"Pod\",\"data\":{\"a\":\"b\"}} Secret", nil, []string{"  level: info\n", `{"a":"b"}`}, nil},
		{"secret arns kept", `SecretId: arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-AbCdEf, "arn:aws:secretsmanager:us-east-1:1:secret:api-key"`, nil,
			[]string{`SecretId: arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-AbCdEf, "arn:aws:secretsmanager:us-east-1:1:secret:api-key"`}, nil},
		{"xml config", `<add key="ApiKey" value="XmlApiKey123"/><add key="Timeout" value="30"/> <db><password>XmlPw456</password><user>sa</user><ApiToken>XmlTok7</ApiToken></db>`, []string{"XmlApiKey123", "XmlPw456", "XmlTok7"},
			[]string{`<add key="ApiKey" value="<REDACTED_SECRET_3>"/><add key="Timeout" value="30"/> <db><password><REDACTED_PASSWORD_1></password><user>sa</user><ApiToken><REDACTED_SECRET_2></ApiToken></db>`}, nil},
		{"xml names kept", "<passwordPolicy>strict</passwordPolicy><tokenCount>5</tokenCount><key>name</key>", nil, []string{"<passwordPolicy>strict</passwordPolicy><tokenCount>5</tokenCount><key>name</key>"}, nil},
		{"github", "token " + planted["github"], []string{planted["github"]}, nil, []string{"github_token"}},
		{"client secret in escaped json", `msg="{\"client_secret\":\"` + planted["client_secret"] + `\"}"`, []string{planted["client_secret"]}, nil, []string{"secret"}},
		{"query string", "GET /cb?code=1&access_token=abc.def-ghi&state=x", []string{"abc.def-ghi"}, []string{"state=x", "code=1"}, []string{"token"}},
		{"token counts kept", "usage input_tokens=12 output_tokens=5 token_count=3", nil, []string{"input_tokens=12", "token_count=3"}, nil},
		{"template placeholder kept", "login failed password=<*> user=<*>", nil, []string{"password=<*>"}, nil},
		{"booleans kept", `{"secret": true, "password": null}`, nil, []string{`"secret": true`, `"password": null`}, nil},
		{"no secrets", "2024-01-01 ERROR connection refused to 10.0.0.1:5432", nil, []string{"connection refused to 10.0.0.1:5432"}, nil},
		{"url password, empty user", "connect redis://:REDISPASSWORDvalue77@cache:6379 failed", []string{"REDISPASSWORDvalue77"}, []string{"connect redis://:", "@cache:6379 failed"}, []string{"url_password"}},
		{"url password, empty user, tls", "rediss://:VALGabcdef123@cache:6380/0 failed", []string{"VALGabcdef123"}, []string{"rediss://:", "@cache:6380/0"}, []string{"url_password"}},
		{"url password, empty user, srv", "mongodb+srv://:VALEabcdef123@cluster0/ failed", []string{"VALEabcdef123"}, []string{"mongodb+srv://:", "@cluster0/"}, []string{"url_password"}},
		{"url password with a raw @", "dial postgres://app:Sup3r@Secr3t@db.internal:5432/prod", []string{"Sup3r", "Secr3t"}, []string{"postgres://app:", "@db.internal:5432/prod"}, []string{"url_password"}},
		{"percent-encoded pairs", "GET /login?next=%2Fcb%3Ftoken%3DeyJhbGciOiJIUzI1NiJ9.e30.sig%26page%3D2 and /x?api_key%3Dabcd1234efgh5678", []string{"eyJhbGciOiJIUzI1NiJ9", "abcd1234efgh5678"},
			[]string{"GET /login?next=%2Fcb%3Ftoken%3D", "%26page%3D2 and /x?api_key%3D"}, nil},
		{"percent-encoded pairs kept", "GET /search?q=a%3Db&next=%2Fhome%3Fpage%3D2", nil, []string{"GET /search?q=a%3Db&next=%2Fhome%3Fpage%3D2"}, nil},
		{"url without password kept", "GET https://example.com:8443/a@b and http://host:80/x", nil, []string{"https://example.com:8443/a@b", "http://host:80/x"}, nil},
		{"pgp private key block", "key:\n-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2 (GNU/Linux)\n\nlQOYBF0AAAABCADPGPPRIVxxxxxxxxxxxxxxx\n=Ab12\n-----END PGP PRIVATE KEY BLOCK-----\nend",
			[]string{"lQOYBF0AAAABCADPGPPRIVxxxxxxxxxxxxxxx", "=Ab12", "PRIVATE KEY BLOCK"}, []string{"key:\n", "\nend"}, []string{"private_key"}},
		{"pgp private key block on one line", "-----BEGIN PGP PRIVATE KEY BLOCK----- lQOYBF0AAAABCADPGPPRIVxxxxxxxxxxxxxxx -----END PGP PRIVATE KEY BLOCK----- next", []string{"lQOYBF0AAAABCADPGPPRIVxxxxxxxxxxxxxxx"}, []string{" next"}, []string{"private_key"}},
		{"pgp private key cut short", "-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2 (GNU/Linux)\n\nlQOYBF0AAAABCADPGPPRIVxxxxxxxxxxxxxxx", []string{"lQOYBF0AAAABCADPGPPRIVxxxxxxxxxxxxxxx"}, nil, []string{"private_key"}},
		{"pgp public key kept", "-----BEGIN PGP PUBLIC KEY BLOCK-----\nmQENBF0AAAAB\n-----END PGP PUBLIC KEY BLOCK-----", nil, []string{"mQENBF0AAAAB"}, nil},
		{"slack webhook", "slack webhook https://hooks.slack.com/services/T00000000/B00000000/SLACKWEBHOOKSECRETXXXXXXXX failed", []string{"SLACKWEBHOOKSECRETXXXXXXXX", "T00000000/B00000000"}, []string{"https://hooks.slack.com/services/", " failed"}, []string{"slack_webhook"}},
		{"slack tokens", "bot xoxb-123456789012-1234567890123-SlackBotTok app xapp-1-A0123456789-SlackAppTok refresh xoxe-1-SlackRefreshTok", []string{"SlackBotTok", "SlackAppTok", "SlackRefreshTok"},
			[]string{"bot <REDACTED_SLACK_TOKEN_1> app <REDACTED_SLACK_TOKEN_2> refresh <REDACTED_SLACK_TOKEN_3>"}, nil},
		{"npm token", "npm token npm_NPMTOKENVALUE1234567890abcdefghijklmn invalid", []string{"NPMTOKENVALUE1234567890abcdefghijklmn"}, []string{"npm token ", " invalid"}, []string{"npm_token"}},
		{"hugging face token", "HF_TOKEN hf_HUGGINGFACEtokenVALUE0123456789abcd used; hf_hub_download kept", []string{"HUGGINGFACEtokenVALUE0123456789abcd"}, []string{"HF_TOKEN <REDACTED_HUGGINGFACE_TOKEN_1> used; hf_hub_download kept"}, nil},
		{"docker config auth", `{"auths": {"registry.example.com": {"auth": "ZG9ja2VyOkRvY2tlclB3MQ=="}}} log {\"auth\":\"ZXNjYXBlZDpQdzI=\"}`, []string{"ZG9ja2VyOkRvY2tlclB3MQ==", "ZXNjYXBlZDpQdzI="},
			[]string{`{"auth": "<REDACTED_DOCKER_AUTH_1>"}}} log {\"auth\":\"<REDACTED_DOCKER_AUTH_2>\"}`}, nil},
		{"auth words kept", `auth: required, "auth": "none", oauth=google`, nil, []string{`auth: required, "auth": "none", oauth=google`}, nil},
		{"curl user", "curl -s -u admin:CurlPw123 https://api.example.com && curl --user 'bob:CurlPw456' x", []string{"CurlPw123", "CurlPw456"},
			[]string{"curl -s -u admin:<REDACTED_PASSWORD_1> https://api.example.com && curl --user 'bob:<REDACTED_PASSWORD_2>' x"}, nil},
		{"docker login", "docker login -u bob -p DockerPw1 registry.io", []string{"DockerPw1"}, []string{"docker login -u bob -p <REDACTED_PASSWORD_1> registry.io"}, nil},
		{"netrc", "machine api.heroku.com login me@x.com password NetrcPw1\nmachine github.com\n  login bob\n  password NetrcPw2\n", []string{"NetrcPw1", "NetrcPw2"},
			[]string{"machine api.heroku.com login me@x.com password <REDACTED_PASSWORD_1>\nmachine github.com\n  login bob\n  password <REDACTED_PASSWORD_2>\n"}, nil},
		{"-u and -p elsewhere kept", "ssh -p 2222 host; sort -u a:b; docker run -p 8080:80 img; the state machine foo password reset", nil, []string{"ssh -p 2222 host; sort -u a:b; docker run -p 8080:80 img; the state machine foo password reset"}, nil},
		{"npmrc", "//registry.npmjs.org/:_authToken=NpmrcAuthToken1\n//npm.example.com/:_auth=bnBtOk5wbXJjUHcy\n//npm.example.com/:_password=TnBtcmNQdzM=\nbasic_auth = enabled\n", []string{"NpmrcAuthToken1", "bnBtOk5wbXJjUHcy", "TnBtcmNQdzM="},
			[]string{"//registry.npmjs.org/:_authToken=<REDACTED_TOKEN_1>\n//npm.example.com/:_auth=<REDACTED_SECRET_2>\n//npm.example.com/:_password=<REDACTED_PASSWORD_3>\nbasic_auth = enabled\n"}, nil},
		{"npmrc _auth alone", "//npm.example.com/:_auth=bnBtOk5wbXJjUHc0", []string{"bnBtOk5wbXJjUHc0"}, []string{"//npm.example.com/:_auth=<REDACTED_SECRET_1>"}, nil},
		{"npm package name kept", "installed npm_config_cache and npm_lifecycle_event", nil, []string{"npm_config_cache", "npm_lifecycle_event"}, nil},
		{"gitlab token", "clone with glpat-GITLABTOKENVALUE12345x done", []string{"GITLABTOKENVALUE12345x"}, []string{"clone with ", " done"}, []string{"gitlab_token"}},
		{"hcl heredoc", "resource \"aws_db_instance\" \"db\" {\n  password = <<-EOT\n    HeredocSecretPw123\n  EOT\n  username = \"admin\"\n}", []string{"HeredocSecretPw123"},
			[]string{"  password = <<-EOT\n    <REDACTED_PASSWORD_1>\n  EOT\n  username = \"admin\"\n}"}, []string{"password"}},
		{"hcl heredoc unindented", "password = <<EOT\nHeredocLine1\n\nHeredocLine2\r\nEOT\nuser = \"a\"", []string{"HeredocLine1", "HeredocLine2"}, []string{"<<EOT\n", "\n\n", "\r\nEOT\nuser = \"a\""}, []string{"password", "password"}},
		{"heredoc cut short", "secret = <<EOT\nCutShortSecret1\n  CutShortSecret2", []string{"CutShortSecret1", "CutShortSecret2"}, []string{"secret = <<EOT\n"}, []string{"secret", "secret"}},
		{"heredoc of another key kept", "policy = <<EOF\n{\"Version\": \"2012-10-17\"}\nEOF\npassword = <<EOF\nPolicyNextPw1\nEOF\n", []string{"PolicyNextPw1"}, []string{`{"Version": "2012-10-17"}`}, []string{"password"}},
		{"heredoc with interpolation kept", "password = <<EOT\n${var.db_password}\nEOT\n", nil, []string{"${var.db_password}"}, nil},
		{"yaml block scalar", "MasterUsername: admin\nMasterUserPassword: |\n  YamlBlockSecretPw1\nEngine: mysql\n", []string{"YamlBlockSecretPw1"},
			[]string{"MasterUserPassword: |\n  <REDACTED_PASSWORD_1>\nEngine: mysql\n", "MasterUsername: admin"}, []string{"password"}},
		{"yaml folded block scalars", "a:\n  password: >\n    FoldedPw1\n    FoldedPw2\n\n  token: |-\n    StripTok1\n  secret: >+ # kept\n    KeepSec1\n\n  client_secret: |2\n      IndentSec1\n  user: bob\n",
			[]string{"FoldedPw1", "FoldedPw2", "StripTok1", "KeepSec1", "IndentSec1"}, []string{"  password: >\n    <", "  token: |-\n    <", "  secret: >+ # kept\n    <", "\n  user: bob\n"},
			[]string{"password", "password", "token", "secret", "secret"}},
		{"yaml block scalar in a list", "- password: |\n    ListPw1\n  user: bob\n- password: x1\n", []string{"ListPw1", "x1"}, []string{"  user: bob\n- password: "}, []string{"password", "password"}},
		{"yaml block scalar of another key kept", "Description: |\n  The password is rotated\nPassword: |\n  BlockAfterPw\n", []string{"BlockAfterPw"}, []string{"  The password is rotated\n"}, []string{"password"}},
		{"yaml tagged block scalar", "password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  6638643965\nuser: x\n", []string{"$ANSIBLE_VAULT;1.1;AES256", "6638643965"}, []string{"password: !vault |\n  <", "user: x"}, nil},
		{"cloudformation sub block kept", "Password: !Sub |\n  ${AWS::StackName}-pw\n", nil, []string{"${AWS::StackName}-pw"}, nil},
		{"block marker at the end", "password: |", nil, []string{"password: |"}, nil},
		{"private key in a block scalar", "private_key: |\n  -----BEGIN RSA PRIVATE KEY-----\n  MIIEowIBAAKCAQEA7bq98sT0\n  -----END RSA PRIVATE KEY-----\nname: x\n", []string{"MIIEowIBAAKCAQEA7bq98sT0"}, []string{"name: x"}, nil},
		{"value starting with !", "login failed password=!Summer2024x user=bob", []string{"Summer2024x"}, []string{"login failed password=", " user=bob"}, []string{"password"}},
		{"json value starting with !", `{"user":"bob","password":"!JsonBang2024"}`, []string{"JsonBang2024"}, []string{`"user":"bob"`, `"password":"`}, []string{"password"}},
		{"yaml value starting with !", "MasterUserPassword: !Bang2024x\nEngine: mysql", []string{"Bang2024x"}, []string{"Engine: mysql"}, []string{"password"}},
		{"value starting with ! and a space", "password: !Summer 2024 rejected", []string{"Summer", "2024"}, []string{"password: ", " rejected"}, []string{"password"}},
		{"yaml core tag", "password: !!str 123456\n", []string{"123456"}, []string{"password: !!str "}, []string{"password"}},
		{"value starting with [", "db password: [BracketPw]99", []string{"BracketPw", "]99"}, []string{"db password: "}, []string{"password"}},
		{"value starting with {", "client_secret={BracePwValue} next=1", []string{"BracePwValue"}, []string{"client_secret=", " next=1"}, []string{"secret"}},
		{"value in angle brackets", "password=<AnglePwValue> user=bob", []string{"AnglePwValue"}, []string{"password=", " user=bob"}, []string{"password"}},
		{"value in angle brackets with digits", "token=<abc123def>", []string{"abc123def"}, nil, []string{"token"}},
		{"cloudformation functions kept", "MasterUserPassword: !Ref DbPassword\nPassword: !GetAtt Secret.Value\nSecretToken: !Sub '${AWS::StackName}-x'\nDbPassword: !Join ['', [a, b]]\nKeyPassword: !ImportValue shared-pw\n", nil,
			[]string{"!Ref DbPassword", "!GetAtt Secret.Value", "!Sub '${AWS::StackName}-x'", "!Join ['', [a, b]]", "!ImportValue shared-pw"}, nil},
		{"cloudformation long form kept", `{"MasterUserPassword": {"Fn::Join": ["", [{"Ref": "Pw"}]]}, "Password": {"Ref": "DbPassword"}}`, nil, []string{`{"Fn::Join"`, `{"Ref": "DbPassword"}`}, nil},
		{"yaml flow mapping kept", "MasterUserPassword: {Ref: DbPassword}\nPassword: { \"Fn::GetAtt\": [S, V] }\n", nil, []string{"{Ref: DbPassword}", `{ "Fn::GetAtt": [S, V] }`}, nil},
		{"dynamic references kept", `MasterUserPassword: '{{resolve:secretsmanager:MySecret:SecretString:password}}'` + "\nPassword: {{resolve:ssm-secure:DbPw:1}}\n", nil,
			[]string{"{{resolve:secretsmanager:MySecret:SecretString:password}}", "{{resolve:ssm-secure:DbPw:1}}"}, nil},
		{"templates and interpolations kept", "password: {{ .Values.db.password }}\napi_key=${API_KEY} token = var.token secret = local.s", nil, []string{"{{ .Values.db.password }}", "${API_KEY}", "var.token", "local.s"}, nil},
		{"lists kept", `password: [] tokens: [] secret_arns: ["arn:x"] secrets: [var.a, "${var.b}"] credentials: [{"user": "u"}]`, nil, []string{`password: [] tokens: [] secret_arns: ["arn:x"] secrets: [var.a, "${var.b}"] credentials: [{"user": "u"}]`}, nil},
		{"list values", `secret: [FlowSec1, FlowSec2] token: ["JsonTok1"]`, []string{"FlowSec1", "FlowSec2", "JsonTok1"},
			[]string{`secret: [<REDACTED_SECRET_1>, <REDACTED_SECRET_2>] token: ["<REDACTED_TOKEN_3>"]`}, nil},
		{"json list of a plural key", `{"api_keys": ["ApiKeyOne1", "ApiKeyTwo2"], "user": "x"}`, []string{"ApiKeyOne1", "ApiKeyTwo2"},
			[]string{`{"api_keys": ["<REDACTED_KEY_1>", "<REDACTED_KEY_2>"], "user": "x"}`}, nil},
		{"pretty json list", "{\n  \"passwords\": [\n    \"PrettyPw1\",\n    \"PrettyPw2\"\n  ],\n  \"n\": 1\n}", []string{"PrettyPw1", "PrettyPw2"},
			[]string{"[\n    \"<REDACTED_PASSWORD_1>\",\n    \"<REDACTED_PASSWORD_2>\"\n  ],\n  \"n\": 1\n}"}, nil},
		{"escaped json list", `msg="{\"tokens\":[\"EscTok1\",\"EscTok2\"]}"`, []string{"EscTok1", "EscTok2"}, []string{`{\"tokens\":[\"<REDACTED_TOKEN_1>\",\"<REDACTED_TOKEN_2>\"]}`}, nil},
		{"hcl list", "secrets = [\"HclSec1\", \"HclSec2\",\n  var.other,\n]\nname = \"x\"", []string{"HclSec1", "HclSec2"},
			[]string{"secrets = [\"<REDACTED_SECRET_1>\", \"<REDACTED_SECRET_2>\",\n  var.other,\n]\nname = \"x\""}, nil},
		{"yaml sequence", "passwords:\n  - SeqPw1\n  - \"SeqPw 2\" # old\n\n  - SeqPw3\nuser: x\ntokens:\n- SeqTok1\n- {a: b}\n", []string{"SeqPw1", "SeqPw 2", "SeqPw3", "SeqTok1"},
			[]string{"passwords:\n  - <REDACTED_PASSWORD_1>\n  - \"<REDACTED_PASSWORD_2>\" # old\n\n  - <REDACTED_PASSWORD_3>\nuser: x\ntokens:\n- <REDACTED_TOKEN_4>\n- {a: b}\n"}, nil},
		{"yaml value on the next line", "password:\n  NextLinePw1\nMasterUserPassword:\n  Ref: DbPassword\ntoken:\n  \"NextLineTok2\"\nuser: x\n", []string{"NextLinePw1", "NextLineTok2"},
			[]string{"password:\n  <REDACTED_PASSWORD_1>\nMasterUserPassword:\n  Ref: DbPassword\ntoken:\n  <REDACTED_TOKEN_2>\nuser: x\n"}, nil},
		{"yaml sequence of mappings kept", "imagePullSecrets:\n  - name: regcred\nsecrets:\n  - name: x\n    password: SeqMapPw1\nitems:\n- a\n", []string{"SeqMapPw1"},
			[]string{"imagePullSecrets:\n  - name: regcred\nsecrets:\n  - name: x\n    password: <REDACTED_PASSWORD_1>\nitems:\n- a\n"}, nil},
		{"plural counts kept", "usage tokens=1550 max_tokens: 4096 passwords: 3 secrets: inherit", nil, []string{"usage tokens=1550 max_tokens: 4096 passwords: 3 secrets: inherit"}, nil},
		{"placeholders kept", "password=<password> api_key=<YOUR_API_KEY> token=<*> secret=[REDACTED] pwd=<your-password>", nil,
			[]string{"<password>", "<YOUR_API_KEY>", "<*>", "[REDACTED]", "<your-password>"}, nil},
		{"cookie header", "request headers Cookie: session=COOKIESESSIONVALUE9876543210; theme=dark; csrf=\"CSRFvalue1\"\nnext", []string{"COOKIESESSIONVALUE9876543210", "dark", "CSRFvalue1"}, []string{"Cookie: session=", "; theme=", "; csrf=\"", "\"\nnext"}, []string{"cookie", "cookie", "cookie"}},
		{"set-cookie header", "Set-Cookie: sid=SETCOOKIEVALUE31337; Path=/; HttpOnly", []string{"SETCOOKIEVALUE31337"}, []string{"Set-Cookie: sid=", "; Path=/; HttpOnly"}, []string{"cookie"}},
		{"cookie in json", `{"headers":{"Cookie":"session=CookieJsonValue1; lang=en","Host":"x"}}`, []string{"CookieJsonValue1"}, []string{`"Host":"x"`, "session="}, nil},
		{"cookie template kept", "Cookie: session=<*>; theme=<*>", nil, []string{"Cookie: session=<*>; theme=<*>"}, nil},
		{"cookie counts kept", "cookies=3 cookie_policy=strict", nil, []string{"cookies=3", "cookie_policy=strict"}, nil},
		{"session id", "session_id=SESSIONIDVALUE4242 expired", []string{"SESSIONIDVALUE4242"}, []string{"session_id=", " expired"}, []string{"session"}},
		{"sessionid", `{"sessionid":"SessIdJson77","user":"bob"}`, []string{"SessIdJson77"}, []string{`"user":"bob"`}, []string{"session"}},
		{"session name kept", "role_session_name=deploy session_duration=3600", nil, []string{"role_session_name=deploy", "session_duration=3600"}, nil},
		{"db_pass", "env DB_PASS=DBPASSVALUEqwerty123 started", []string{"DBPASSVALUEqwerty123"}, []string{"DB_PASS=", " started"}, []string{"password"}},
		{"pass suffix and word", `SMTP-PASS: SmtpPassVal9 {"user":"bob","pass":"JSONPASSVALUE888"}`, []string{"SmtpPassVal9", "JSONPASSVALUE888"}, []string{`"user":"bob"`}, []string{"password", "password"}},
		{"passwd and pwd keys", "PASSWD=PasswdVal1 PWD=PwdVal22 Pwd=AdoPwd33;", []string{"PasswdVal1", "PwdVal22", "AdoPwd33"}, []string{"PASSWD=", "PWD=", "Pwd="}, []string{"password", "password", "password"}},
		{"secret key names", "auth_key=AUTHKEYvalue123 master_key=MASTERKEYvalue123 encryption_key: ENCKEYvalue123 SigningKey=SIGNINGKEYvalue123 client-key=ClientKeyV1", []string{"AUTHKEYvalue123", "MASTERKEYvalue123", "ENCKEYvalue123", "SIGNINGKEYvalue123", "ClientKeyV1"}, []string{"auth_key=", "SigningKey="}, nil},
		{"service key names", "Ocp-Apim-Subscription-Key: SubKey0123456789\nx-functions-key: FnKey123\nAPP_KEY=base64:AppKeyBase64Value=\nLICENSE_KEY=NrLicense0123\nwebhook whsec_StripeWebhookSecret0123456789", []string{"SubKey0123456789", "FnKey123", "AppKeyBase64Value", "NrLicense0123", "StripeWebhookSecret0123456789"},
			[]string{"Ocp-Apim-Subscription-Key: <REDACTED_KEY_2>\nx-functions-key: <REDACTED_KEY_3>\nAPP_KEY=<REDACTED_KEY_4>\nLICENSE_KEY=<REDACTED_KEY_5>\nwebhook <REDACTED_API_KEY_1>"}, nil},
		{"publishable and app names kept", "pk_live_abcdefghijklmnop1234 app_name=web mapkey=1 subscription_id=abc", nil, []string{"pk_live_abcdefghijklmnop1234 app_name=web mapkey=1 subscription_id=abc"}, nil},
		{"other key names kept", "hash_key = \"id\" partition_key=pk key_name=deploy kms_key_id=abc", nil, []string{`hash_key = "id"`, "partition_key=pk", "key_name=deploy", "kms_key_id=abc"}, nil},
		{"bypass kept", "bypass=cache compass=north", nil, []string{"bypass=cache", "compass=north"}, nil},
		{"prose", `the password is 'hunter2' and the password was "x9!k". The admin password is: Winter2024. Her pin is 4821.`, []string{"hunter2", "x9!k", "Winter2024", "4821"},
			[]string{`the password is '<REDACTED_PASSWORD_1>' and the password was "<REDACTED_PASSWORD_2>". The admin password is: <REDACTED_PASSWORD_3>. Her pin is <REDACTED_PIN_4>.`}, nil},
		{"sql and quoted after the key", `ALTER USER bob WITH PASSWORD 'SqlPw789'; CREATE USER x IDENTIFIED BY "OraPw1"; the token  "TokQuoted1" expired`, []string{"SqlPw789", "OraPw1", "TokQuoted1"},
			[]string{`ALTER USER bob WITH PASSWORD '<REDACTED_PASSWORD_2>'; CREATE USER x IDENTIFIED BY "<REDACTED_PASSWORD_1>"; the token  "<REDACTED_TOKEN_3>" expired`}, nil},
		{"quoted references after the key kept", `export PASSWORD "${DB_PW}"; password '' set; tokens "a" counted; MountVolume.SetUp failed for volume "certs" : secret "db-creds" not found`, nil,
			[]string{`export PASSWORD "${DB_PW}"; password '' set; tokens "a" counted; MountVolume.SetUp failed for volume "certs" : secret "db-creds" not found`}, nil},
		{"hcl block labels kept", "resource \"aws_secretsmanager_secret\" \"db\" {\n}\nresource \"random_password\" \"pw\" {}\nresource \"aws_iam_access_key\" \"k\" {}\noutput \"db_password\" {}", nil,
			[]string{"resource \"aws_secretsmanager_secret\" \"db\" {\n}\nresource \"random_password\" \"pw\" {}\nresource \"aws_iam_access_key\" \"k\" {}\noutput \"db_password\" {}"}, nil},
		{"prose kept", "the password is incorrect. The token was expired, the password is 8 characters long, the secret is in kv/prod/db, the token was rotated 2024-05-01T10:00 and the password is well-known", nil,
			[]string{"the password is incorrect. The token was expired, the password is 8 characters long, the secret is in kv/prod/db, the token was rotated 2024-05-01T10:00 and the password is well-known"}, nil},
		{"one-time codes and pins", "otp=123456 pin=1234 passcode=998877 totp=654321 mfa_otp: 112233 userPin=4321 DbPass=CamelPassVal1", []string{"123456", "1234", "998877", "654321", "112233", "4321", "CamelPassVal1"},
			[]string{"otp=<REDACTED_OTP_1> pin=<REDACTED_PIN_2> passcode=<REDACTED_PASSWORD_3> totp=<REDACTED_OTP_4> mfa_otp: <REDACTED_OTP_5> userPin=<REDACTED_PIN_6> DbPass=<REDACTED_PASSWORD_7>"}, nil},
		{"totp secret", "totp_secret: JBSWY3DPEHPK3PXP", []string{"JBSWY3DPEHPK3PXP"}, []string{"totp_secret: "}, []string{"secret"}},
		{"a pin's number kept", "gpio: led_pin=17 reset_pin: 4 card pin=0000", []string{"0000"}, []string{"led_pin=17 reset_pin: 4 card pin="}, nil},
		{"pin and otp inside words kept", "spin=3 ping=ok mapping=a laptop=x hotpink=1 SPIN=2", nil, []string{"spin=3 ping=ok mapping=a laptop=x hotpink=1 SPIN=2"}, nil},
		{"cli password flag", "run: mysql -u root --password CliPwValue123 failed", []string{"CliPwValue123"}, []string{"mysql -u root --password ", " failed"}, []string{"password"}},
		{"cli password flag with =", "mysqldump --password=CliPwEq456 db", []string{"CliPwEq456"}, []string{"--password=", " db"}, []string{"password"}},
		{"cli secret, token and api key flags", "tool --client-secret CliSecret1 --token 'CliToken2' --api-key=CliKey3 --verbose", []string{"CliSecret1", "CliToken2", "CliKey3"}, []string{"--client-secret ", "--token '", "--api-key=", " --verbose"}, []string{"secret", "token", "key"}},
		{"cli flag without value", "mysql --password --user root", nil, []string{"--password --user root"}, nil},
		{"mysql -p", "mysql -h db -P 3306 -u root -pMysqlPw789 app", []string{"MysqlPw789"}, []string{"-P 3306", "-u root -p", " app"}, []string{"password"}},
		{"-p elsewhere kept", "mkdir -p /var/lib/app && grep -pattern x", nil, []string{"mkdir -p /var/lib/app", "-pattern"}, nil},
		{"digest authorization", `Authorization: Digest username="u", realm="r", nonce="n1", response="DIGESTHDRvalue", qop=auth denied`, []string{"DIGESTHDRvalue", `username="u"`}, []string{"Authorization: Digest ", " denied"}, []string{"authorization"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := New()
			out := r.Text(tc.in)
			for _, s := range tc.secrets {
				if strings.Contains(out, s) {
					t.Errorf("%q survived: %s", s, out)
				}
			}
			for _, s := range tc.keep {
				if !strings.Contains(out, s) {
					t.Errorf("%q was lost: %s", s, out)
				}
			}
			if tc.kinds != nil {
				var kinds []string
				for _, m := range r.Masks() {
					kinds = append(kinds, m.Kind)
				}
				if strings.Join(kinds, ",") != strings.Join(tc.kinds, ",") {
					t.Errorf("masked %v, want %v: %s", kinds, tc.kinds, out)
				}
			}
			if restore(r, out) != tc.in {
				t.Errorf("placeholders do not restore the input:\n%s", out)
			}
		})
	}
}

// The same value gets the same placeholder, in one text and across texts.
func TestStablePlaceholders(t *testing.T) {
	r := New()
	a := r.Text("password=hunter22 and again password=hunter22")
	b := r.Text(`{"db_password":"hunter22","other_password":"different1"}`)
	if strings.Count(a, "<REDACTED_PASSWORD_1>") != 2 || !strings.Contains(b, "<REDACTED_PASSWORD_1>") || !strings.Contains(b, "<REDACTED_PASSWORD_2>") {
		t.Errorf("placeholders not stable: %s / %s", a, b)
	}
	if v, ok := r.Original("<REDACTED_PASSWORD_2>"); !ok || v != "different1" {
		t.Errorf("Original = %q, %v", v, ok)
	}
	if len(r.Masks()) != 2 {
		t.Errorf("masks %v", r.Masks())
	}
}

func TestAllPlanted(t *testing.T) {
	var b strings.Builder
	for k, v := range planted {
		switch k {
		case "postgres":
			b.WriteString("dsn=postgres://u:" + v + "@h/db\n")
		case "bearer":
			b.WriteString("Authorization: Bearer " + v + "\n")
		case "master_password":
			b.WriteString(`"MasterUserPassword": "` + v + "\"\n")
		case "azure_account":
			b.WriteString("AccountKey=" + v + ";\n")
		case "client_secret":
			b.WriteString("client_secret=" + v + "\n")
		default:
			b.WriteString("value " + v + "\n")
		}
	}
	out := New().Text(b.String())
	for k, v := range planted {
		if strings.Contains(out, v) {
			t.Errorf("%s survived: %s", k, out)
		}
	}
}

func restore(r *Redactor, s string) string {
	return Placeholder.ReplaceAllStringFunc(s, func(ph string) string {
		if v, ok := r.Original(ph); ok {
			return v
		}
		return ph
	})
}

// Masking never loses text: every placeholder restores exactly the value
// it replaced, and masking masked text masks nothing more.
func FuzzText(f *testing.F) {
	for _, v := range planted {
		f.Add("secret=" + v + " x")
	}
	f.Add(`{"password":"a\"b","token":'x'}`)
	f.Add("postgres://u:p@h -----BEGIN PRIVATE KEY-----")
	f.Fuzz(func(t *testing.T, in string) {
		if strings.Contains(in, "REDACTED_") {
			return
		}
		r := New()
		out := r.Text(in)
		if got := restore(r, out); got != in {
			t.Fatalf("restore(%q) = %q", out, got)
		}
		n := len(r.Masks())
		if again := r.Text(out); again != out || len(r.Masks()) != n {
			t.Fatalf("masking masked text changed it: %q -> %q", out, again)
		}
	})
}

func TestLinesMultiLineKey(t *testing.T) {
	lines := strings.Split("start\nkey -----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oMNrz4ZUxy7m\noAoGCCqGSM49AwEHoUQDQgAE\n-----END EC PRIVATE KEY----- done password=hunter22\nend", "\n")
	r := New()
	out := r.Lines(lines)
	if len(out) != len(lines) {
		t.Fatalf("%d lines for %d", len(out), len(lines))
	}
	joined := strings.Join(out, "\n")
	for _, s := range []string{"MHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oMNrz4ZUxy7m", "oAoGCCqGSM49AwEHoUQDQgAE", "hunter22", "PRIVATE KEY"} {
		if strings.Contains(joined, s) {
			t.Errorf("%q survived: %s", s, joined)
		}
	}
	if out[0] != "start" || out[5] != "end" || !strings.HasPrefix(out[1], "key <REDACTED_PRIVATE_KEY_1>") || !strings.Contains(out[4], " done password=<REDACTED_PASSWORD_2>") {
		t.Errorf("lines %q", out)
	}
	if v, _ := r.Original("<REDACTED_PRIVATE_KEY_1>"); !strings.HasPrefix(v, "-----BEGIN EC") || !strings.HasSuffix(v, "-----END EC PRIVATE KEY-----") {
		t.Errorf("original %q", v)
	}
}

// A secret's heredoc or block scalar in a log is masked line by line,
// keeping the lines' count and indentation.
func TestLinesBlocks(t *testing.T) {
	in := "start\nconfig password: |\n  LogBlockPw1\n  LogBlockPw2\n\nnext line\nsecret = <<-EOT\n  LogHeredocSec\n  EOT\nafter EOT\ntoken: >-\n    ${TOKEN}\nend"
	lines := strings.Split(in, "\n")
	r := New()
	out := r.Lines(lines)
	if len(out) != len(lines) {
		t.Fatalf("%d lines for %d", len(out), len(lines))
	}
	joined := strings.Join(out, "\n")
	for _, s := range []string{"LogBlockPw1", "LogBlockPw2", "LogHeredocSec"} {
		if strings.Contains(joined, s) {
			t.Errorf("%q survived: %s", s, joined)
		}
	}
	want := "start\nconfig password: |\n  <REDACTED_PASSWORD_1>\n  <REDACTED_PASSWORD_2>\n\nnext line\nsecret = <<-EOT\n  <REDACTED_SECRET_3>\n  EOT\nafter EOT\ntoken: >-\n    ${TOKEN}\nend"
	if joined != want {
		t.Errorf("lines\n%s\nwant\n%s", joined, want)
	}
	if restore(r, joined) != in {
		t.Errorf("placeholders do not restore the input:\n%s", joined)
	}
	// A heredoc without its closing marker is masked to maxPEMLines lines.
	lines = append([]string{"password = <<EOT"}, strings.Split(strings.Repeat("x1y2\n", maxPEMLines+5), "\n")...)
	out = New().Lines(lines)
	if out[maxPEMLines] == "x1y2" || out[maxPEMLines+1] != "x1y2" {
		t.Errorf("unclosed heredoc: line %d %q, line %d %q", maxPEMLines, out[maxPEMLines], maxPEMLines+1, out[maxPEMLines+1])
	}
}

// A secret's YAML sequence in a log is masked item by item, and a value
// on the line after its key, as Text does.
func TestLinesSequence(t *testing.T) {
	in := "deploy config\npasswords:\n  - LogSeqPw1\n  - \"LogSeqPw2\"\nnext - line\nsecrets:\n  - name: kept\npassword:\n  LogNextLinePw3"
	got := strings.Join(New().Lines(strings.Split(in, "\n")), "\n")
	want := "deploy config\npasswords:\n  - <REDACTED_PASSWORD_1>\n  - \"<REDACTED_PASSWORD_2>\"\nnext - line\nsecrets:\n  - name: kept\npassword:\n  <REDACTED_PASSWORD_3>"
	if got != want {
		t.Errorf("lines\n%s\nwant\n%s", got, want)
	}
}

// A Secret's data in a log (kubectl's output, data before kind) is masked
// line by line.
func TestLinesSecretManifest(t *testing.T) {
	in := "$ kubectl get secret db -o yaml\napiVersion: v1\ndata:\n  password: cGFzc3dvcmQ=\n  username: YWRtaW4=\nkind: Secret\nmetadata:\n  name: db"
	got := strings.Join(New().Lines(strings.Split(in, "\n")), "\n")
	want := "$ kubectl get secret db -o yaml\napiVersion: v1\ndata:\n  password: <REDACTED_PASSWORD_1>\n  username: <REDACTED_SECRET_2>\nkind: Secret\nmetadata:\n  name: db"
	if got != want {
		t.Errorf("lines\n%s\nwant\n%s", got, want)
	}
}

// A Terraform variable named like a secret has its default masked (the
// key "default" names nothing secret); another variable's default, a
// reference and an empty default stay.
func TestTerraformSecretVariableDefault(t *testing.T) {
	src := `variable "db_password" {
  type        = string
  description = "the database's"
  default     = "hunter2-Prod!"
  sensitive   = true
}

variable "region" {
  default = "eu-west-1"
}

variable "api_token" {
  default = ""
}

variable "master_password" {
  default = "${var.base}-x"
}
`
	r := New()
	out := r.Text(src)
	if strings.Contains(out, "hunter2-Prod!") || !strings.Contains(out, `default     = "<REDACTED_PASSWORD_1>"`) {
		t.Errorf("the secret variable's default was sent:\n%s", out)
	}
	for _, kept := range []string{`"eu-west-1"`, `default = ""`, `"${var.base}-x"`} {
		if !strings.Contains(out, kept) {
			t.Errorf("%s was masked:\n%s", kept, out)
		}
	}
}
