package scan

import (
	"slices"
	"strings"
	"testing"
)

// TestDBEncryptionInherited: a database restored from a snapshot or a
// point in time, or replicating a source, inherits the source's
// encryption (AWS documents StorageEncrypted so), and DB_UNENCRYPTED does
// not fire on a default it does not have; the empty values a state writes
// for unset attributes, and a restore from S3, do not count.
func TestDBEncryptionInherited(t *testing.T) {
	cfn := func(typ, props string) []byte {
		return []byte("Resources:\n  Db:\n    Type: " + typ + "\n    Properties:\n      Engine: postgres\n" + props)
	}
	const (
		cfnInstance = "DB_UNENCRYPTED AWS::RDS::DBInstance Db @ Resources.Db.Properties.StorageEncrypted"
		cfnCluster  = "DB_UNENCRYPTED AWS::RDS::DBCluster Db @ Resources.Db.Properties.StorageEncrypted"
		tfInstance  = "DB_UNENCRYPTED aws_db_instance aws_db_instance.d @ aws_db_instance.d.storage_encrypted"
		tfCluster   = "DB_UNENCRYPTED aws_rds_cluster aws_rds_cluster.d @ aws_rds_cluster.d.storage_encrypted"
	)
	tests := []struct {
		name  string
		input []byte
		want  []string
	}{
		{"instance from a snapshot", cfn("AWS::RDS::DBInstance", "      DBSnapshotIdentifier: arn:aws:rds:us-east-1:1:snapshot:enc\n"), nil},
		{"instance from a Multi-AZ cluster snapshot", cfn("AWS::RDS::DBInstance", "      DBClusterSnapshotIdentifier: snap\n"), nil},
		{"instance restored to a point in time", cfn("AWS::RDS::DBInstance", "      SourceDbiResourceId: db-ABC\n      UseLatestRestorableTime: true\n"), nil},
		{"cluster from a snapshot", cfn("AWS::RDS::DBCluster", "      SnapshotIdentifier: snap\n"), nil},
		{"cluster cloned from a source", cfn("AWS::RDS::DBCluster", "      SourceDBClusterIdentifier: src\n      RestoreType: copy-on-write\n"), nil},
		{"a snapshot named by a value unknown until deploy is still a snapshot", cfn("AWS::RDS::DBCluster", "      SnapshotIdentifier: !Ref AWS::AccountId\n"), nil},
		{"an instance created empty is judged", cfn("AWS::RDS::DBInstance", "      DBInstanceClass: db.t3.micro\n"), []string{cfnInstance}},
		{"an explicit false is judged even with a snapshot", cfn("AWS::RDS::DBCluster", "      SnapshotIdentifier: snap\n      StorageEncrypted: false\n"), []string{cfnCluster}},
		{"terraform instance from a snapshot", tfState(tfRes("aws_db_instance.d", `{"engine":"postgres","snapshot_identifier":"snap","storage_encrypted":null,"restore_to_point_in_time":[]}`)), nil},
		{"terraform instance restored to a point in time", tfState(tfRes("aws_db_instance.d", `{"engine":"postgres","restore_to_point_in_time":[{"source_db_instance_identifier":"src","use_latest_restorable_time":true}]}`)), nil},
		{"terraform cluster from a snapshot", tfState(tfRes("aws_rds_cluster.d", `{"engine":"aurora-postgresql","engine_mode":"provisioned","snapshot_identifier":"snap"}`)), nil},
		{"terraform cluster restored to a point in time", tfState(tfRes("aws_rds_cluster.d", `{"engine":"aurora-postgresql","engine_mode":"provisioned","restore_to_point_in_time":[{"source_cluster_identifier":"src"}]}`)), nil},
		{"terraform cluster replica", tfState(tfRes("aws_rds_cluster.d", `{"engine":"aurora-mysql","engine_mode":"provisioned","replication_source_identifier":"arn:aws:rds:eu-west-1:1:cluster:src"}`)), nil},
		{"unset attributes written as empty values are not a source", tfState(tfRes("aws_db_instance.d", `{"engine":"postgres","replicate_source_db":"","snapshot_identifier":"","restore_to_point_in_time":[]}`)), []string{tfInstance}},
		{"a restore from a backup file in S3 writes new storage", tfState(tfRes("aws_rds_cluster.d", `{"engine":"aurora-mysql","engine_mode":"provisioned","s3_import":[{"bucket_name":"b","source_engine":"mysql"}]}`)), []string{tfCluster}},
	}
	for _, tt := range tests {
		equalStrings(t, tt.name, findingLines(scanAt(t, tt.input).Findings), tt.want)
	}
}

// TestYAML11Booleans: CloudFormation reads YAML 1.1, where yes/no/on/off
// are booleans; our reader gives them as strings, and a boolean property
// reads them, in any case, as CloudFormation does.
func TestYAML11Booleans(t *testing.T) {
	tmpl := `AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Db:
    Type: AWS::RDS::DBInstance
    Properties:
      PubliclyAccessible: yes
      StorageEncrypted: True
      Engine: mysql
  Off:
    Type: AWS::RDS::DBCluster
    Properties:
      StorageEncrypted: OFF
  On:
    Type: AWS::RDS::DBInstance
    Properties:
      PubliclyAccessible: No
      StorageEncrypted: On
  Site:
    Type: AWS::S3::Bucket
    Properties:
      AccessControl: PublicRead
      PublicAccessBlockConfiguration:
        BlockPublicAcls: Yes
`
	res := scanAt(t, []byte(tmpl))
	equalStrings(t, "findings", findingLines(res.Findings), []string{
		"DB_PUBLIC AWS::RDS::DBInstance Db @ Resources.Db.Properties.PubliclyAccessible",
		"DB_UNENCRYPTED AWS::RDS::DBCluster Off @ Resources.Off.Properties.StorageEncrypted",
	})
	if len(res.Findings) == 2 && !strings.Contains(res.Findings[1].Message, "StorageEncrypted is false") {
		t.Errorf("message: %s", res.Findings[1].Message)
	}
}

// TestDBPlanComputedDefaults: in a plan from the AWS provider,
// aws_db_instance's snapshot_identifier and aws_rds_cluster's
// storage_encrypted are unknown until apply even when the configuration
// leaves them out, so an instance read as restored from a snapshot and a
// cluster's encryption read as unknown: DB_UNENCRYPTED never fired on a
// plan. Now the attributes the configuration does not set take the
// provider's default; an instance restored from a snapshot it names is
// still not judged.
func TestDBPlanComputedDefaults(t *testing.T) {
	got := scanTestdata(t, "plan_rds_computed.json")
	want := []string{"DB_UNENCRYPTED aws_db_instance.app line 7", "DB_UNENCRYPTED aws_rds_cluster.reports line 42"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
