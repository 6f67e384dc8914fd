package scan

import "strings"

// Databases. What a document leaves out takes the provider's documented
// default, and the finding says so:
//   - storage encryption is off by default for aws_db_instance,
//     aws_rds_cluster, AWS::RDS::DBInstance and AWS::RDS::DBCluster, except
//     Aurora Serverless v1 clusters (engine_mode serverless), which are
//     always encrypted; a database that takes its storage from elsewhere
//     (an instance in a cluster, a read replica, a restore from a snapshot
//     or a point in time) inherits the encryption of that source, as AWS
//     documents for StorageEncrypted, and is not judged. A restore from a
//     backup file in S3 (s3_import) writes new storage and is judged;
//   - publicly_accessible is false by default in Terraform. In
//     CloudFormation an absent PubliclyAccessible depends on the VPC and
//     subnet group, so it is not judged.

func (b *builder) database(r *resource, n *node, attrs map[string]any) {
	var encKey, pubKey, modeKey string
	var inherits []string
	tf := strings.HasPrefix(n.typ, "aws_")
	// inherits: the attributes naming the source of the storage.
	switch n.typ {
	case "aws_db_instance":
		encKey, pubKey = "storage_encrypted", "publicly_accessible"
		inherits = []string{"replicate_source_db", "snapshot_identifier", "restore_to_point_in_time"}
	case "aws_rds_cluster_instance":
		// An instance of a cluster stores nothing of its own: encryption
		// is the cluster's, checked there.
		r.publiclyAccessible, _ = b.flagOf(n, attrs, "publicly_accessible")
		return
	case "aws_rds_cluster":
		encKey, modeKey = "storage_encrypted", "engine_mode"
		inherits = []string{"snapshot_identifier", "restore_to_point_in_time", "replication_source_identifier"}
	case "AWS::RDS::DBInstance":
		encKey, pubKey = "StorageEncrypted", "PubliclyAccessible"
		inherits = []string{"DBClusterIdentifier", "SourceDBInstanceIdentifier", "DBSnapshotIdentifier",
			"DBClusterSnapshotIdentifier", "SourceDBClusterIdentifier", "SourceDbiResourceId", "SourceDBInstanceAutomatedBackupsArn"}
	case "AWS::RDS::DBCluster":
		encKey, modeKey = "StorageEncrypted", "EngineMode"
		inherits = []string{"SnapshotIdentifier", "SourceDBClusterIdentifier", "ReplicationSourceIdentifier"}
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
		if given(attrs, k) {
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

// given says whether an attribute has a value: not absent or null, and not
// the empty string or empty block a state or plan writes for an unset one.
// A value unknown until apply is given.
func given(attrs map[string]any, key string) bool {
	switch v := attrs[key].(type) {
	case nil:
		return false
	case string:
		return v != ""
	case []any:
		return len(v) > 0
	case map[string]any:
		return len(v) > 0
	}
	return true
}
