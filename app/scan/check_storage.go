package scan

import "strconv"

// Checks of s3_bucket and database: both are flags. In our format a flag
// that is not given produces nothing (see doc.go); the adapters of the
// other formats fill in the provider's documented default and say so in
// the flag's evidence (why).

func (e *evaluator) checkS3Bucket(r *resource) {
	if f := r.publicRead; f.on {
		e.report(r, ruleS3PublicRead, e.at(r, "public_read", -1, f.path), f.offset, "public_read",
			"bucket "+strconv.Quote(r.name)+" allows public read ("+evidence(f, "public_read is true")+"): anyone on the internet can list and download its objects", f.via)
	}
	if f := r.encrypted; f.set && !f.on {
		e.report(r, ruleS3Unencrypted, e.at(r, "encrypted", -1, f.path), f.offset, "encrypted",
			"bucket "+strconv.Quote(r.name)+" is not encrypted at rest ("+evidence(f, "encrypted is false")+")", f.via)
	}
}

func (e *evaluator) checkDatabase(r *resource) {
	if f := r.publiclyAccessible; f.on {
		e.report(r, ruleDBPublic, e.at(r, "publicly_accessible", -1, f.path), f.offset, "publicly_accessible",
			"database "+strconv.Quote(r.name)+" is publicly accessible ("+evidence(f, "publicly_accessible is true")+"): it has an endpoint reachable from the internet", f.via)
	}
	if f := r.encrypted; f.set && !f.on {
		e.report(r, ruleDBUnencrypted, e.at(r, "encrypted", -1, f.path), f.offset, "encrypted",
			"database "+strconv.Quote(r.name)+" is not encrypted at rest ("+evidence(f, "encrypted is false")+"): its storage, backups and snapshots are readable without a key", f.via)
	}
}

// evidence is what a flag's value rests on, in words.
func evidence(f flag, ours string) string {
	if f.why != "" {
		return f.why
	}
	return ours
}
