package scan

import "strconv"

// Checks of s3_bucket and database: both are flags read as written. A flag
// that is not given produces nothing (see doc.go).

func (e *evaluator) checkS3Bucket(r *resource) {
	if r.publicRead.on {
		e.report(r, ruleS3PublicRead, e.path(r.index, "public_read", -1), r.publicRead.offset, "public_read",
			"bucket "+strconv.Quote(r.name)+" allows public read (public_read is true): anyone on the internet can list and download its objects")
	}
	if r.encrypted.set && !r.encrypted.on {
		e.report(r, ruleS3Unencrypted, e.path(r.index, "encrypted", -1), r.encrypted.offset, "encrypted",
			"bucket "+strconv.Quote(r.name)+" is not encrypted at rest (encrypted is false)")
	}
}

func (e *evaluator) checkDatabase(r *resource) {
	if r.publiclyAccessible.on {
		e.report(r, ruleDBPublic, e.path(r.index, "publicly_accessible", -1), r.publiclyAccessible.offset, "publicly_accessible",
			"database "+strconv.Quote(r.name)+" is publicly accessible (publicly_accessible is true): it has an endpoint reachable from the internet")
	}
	if r.encrypted.set && !r.encrypted.on {
		e.report(r, ruleDBUnencrypted, e.path(r.index, "encrypted", -1), r.encrypted.offset, "encrypted",
			"database "+strconv.Quote(r.name)+" is not encrypted at rest (encrypted is false): its storage, backups and snapshots are readable without a key")
	}
}
