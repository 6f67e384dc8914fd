package scan

import "strconv"

// Checks of s3_bucket and database: both are flags. In our format a flag
// that is not given produces nothing (see doc.go); the adapters of the
// other formats fill in the provider's documented default and say so in
// the flag's evidence (why).

func (e *evaluator) checkS3Bucket(r *resource) {
	if f := r.publicRead; f.on {
		who := "anyone on the internet"
		if f.audience != "" {
			who = f.audience
		}
		noun := "bucket"
		if r.ptype == "azurerm_storage_container" {
			noun = "container"
		}
		e.reportFlag(r, ruleS3PublicRead, "public_read", f,
			noun+" "+strconv.Quote(r.name)+" allows public read ("+evidence(f, "public_read is true")+"): "+who+" can list and download its objects")
	}
	e.checkEncrypted(r, ruleS3Unencrypted, "bucket", "")
}

func (e *evaluator) checkDatabase(r *resource) {
	if f := r.publiclyAccessible; f.on {
		e.reportFlag(r, ruleDBPublic, "publicly_accessible", f,
			"database "+strconv.Quote(r.name)+" is publicly accessible ("+evidence(f, "publicly_accessible is true")+"): it has an endpoint reachable from the internet")
	}
	e.checkEncrypted(r, ruleDBUnencrypted, "database", ": its storage, backups and snapshots are readable without a key")
}

// checkEncrypted reports r, a bucket or database (kind), when its encrypted
// flag is false; consequence ends the message with what that exposes.
func (e *evaluator) checkEncrypted(r *resource, id ruleID, kind, consequence string) {
	if f := r.encrypted; f.set && !f.on {
		e.reportFlag(r, id, "encrypted", f,
			kind+" "+strconv.Quote(r.name)+" is not encrypted at rest ("+evidence(f, "encrypted is false")+")"+consequence)
	}
}

// reportFlag reports a finding caused by the flag f, r's field.
func (e *evaluator) reportFlag(r *resource, id ruleID, field string, f flag, message string) {
	e.report(r, id, e.at(r, field, -1, f.path), f.offset, field, message, f.via)
}

// evidence is what a flag's value rests on, in words.
func evidence(f flag, ours string) string {
	if f.why != "" {
		return f.why
	}
	return ours
}
