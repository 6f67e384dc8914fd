package scan

import "strings"

// Databases. What a document leaves out takes the provider's documented
// default, and the finding says so:
//   - storage encryption is off by default for aws_db_instance,
//     aws_rds_cluster, AWS::RDS::DBInstance and AWS::RDS::DBCluster, except
//     Aurora Serverless v1 clusters (engine_mode serverless), which are
//     always encrypted; an instance in a cluster, or a read replica, takes
//     its encryption from the cluster or its source and is not judged;
//   - publicly_accessible is false by default in Terraform. In
//     CloudFormation an absent PubliclyAccessible depends on the VPC and
//     subnet group, so it is not judged.

func (b *builder) database(r *resource, n *node, attrs map[string]any) {
	var encKey, pubKey, modeKey string
	var inherits []string
	tf := strings.HasPrefix(n.typ, "aws_")
	switch n.typ {
	case "aws_db_instance":
		encKey, pubKey, inherits = "storage_encrypted", "publicly_accessible", []string{"replicate_source_db"}
	case "aws_rds_cluster":
		encKey, modeKey = "storage_encrypted", "engine_mode"
	case "AWS::RDS::DBInstance":
		encKey, pubKey, inherits = "StorageEncrypted", "PubliclyAccessible", []string{"DBClusterIdentifier", "SourceDBInstanceIdentifier"}
	case "AWS::RDS::DBCluster":
		encKey, modeKey = "StorageEncrypted", "EngineMode"
	}
	if pubKey != "" {
		r.publiclyAccessible, _ = b.flagOf(n, attrs, pubKey)
	}
	f, present := b.flagOf(n, attrs, encKey)
	if present {
		r.encrypted = f
		return
	}
	for _, k := range inherits {
		if _, ok := attr(attrs, k); ok {
			return
		}
	}
	if modeKey != "" {
		if m, ok := attrs[modeKey].(string); ok && strings.EqualFold(m, "serverless") {
			return // Aurora Serverless v1 is always encrypted
		}
		if isUnknown(attrs[modeKey]) {
			return
		}
	}
	who := "the AWS provider's"
	if !tf {
		who = "CloudFormation's"
	}
	r.encrypted = flag{set: true, offset: b.next(), path: n.base + "." + encKey,
		why: encKey + " is not set; " + who + " default is false"}
}
