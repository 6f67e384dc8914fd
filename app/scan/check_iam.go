package scan

import (
	"strconv"
	"strings"
)

// checkIAMPolicy reads actions case-insensitively, as IAM does ("S3:*" is
// "s3:*"); "*" and "*:*" both mean every action. Resources are matched
// exactly: only "*" is every resource.
//
// Overlaps, so one cause is reported once:
//   - a full wildcard action on resource "*" is IAM_FULL_ADMIN and nothing
//     else: the policy already grants everything, so other wildcards add no
//     exposure (they show up once the "*" is removed);
//   - a full wildcard action without resource "*" is IAM_WILDCARD_ACTION
//     and nothing else, for the same reason;
//   - otherwise each distinct iam:* or sts:* is IAM_WILDCARD_ACTION, each
//     distinct other service:* is IAM_SERVICE_WILDCARD, and resource "*"
//     with at least one action is IAM_WILDCARD_RESOURCE. A service wildcard
//     on resource "*" fires both: the fixes (name actions, name resources)
//     are different.
//
// Partial wildcards such as s3:Get* or iam:Put* are not reported.
//
// An Allow with NotAction allows every action but the listed ones (all
// services, and every action added later): IAM_WILDCARD_ACTION, and
// nothing else of that statement. One with NotResource applies its actions
// to every resource but the listed ones: IAM_WILDCARD_RESOURCE.
func (e *evaluator) checkIAMPolicy(r *resource) {
	if len(r.statements) == 0 {
		e.checkStatement(r, statement{actions: r.actions, targets: r.targets})
	}
	for k := range r.statements {
		e.checkStatement(r, r.statements[k])
	}
}

// checkStatement checks one statement: our format's whole policy, or one
// Allow statement of a policy document.
func (e *evaluator) checkStatement(r *resource, st statement) {
	actions, targets := st.actions, st.targets
	if n := st.notActions; len(n) > 0 {
		e.report(r, ruleIAMWildcardAction, e.at(r, "actions", n[0].index, n[0].path), n[0].offset, "NotAction",
			st.subject(r)+" allows every action except "+listActions(n)+" (NotAction)"+onTargets(targets), nil)
		return
	}
	if n := st.notTargets; len(n) > 0 && len(actions) > 0 {
		e.report(r, ruleIAMWildcardResource, e.at(r, "resources", n[0].index, n[0].path), n[0].offset, "NotResource",
			st.subject(r)+" applies "+listActions(actions)+" to every resource except "+
				listResources(n)+" (NotResource)", nil)
	}
	full := firstItem(actions, func(a string) bool { return a == "*" || a == "*:*" })
	star := firstItem(targets, func(t string) bool { return t == "*" })
	if full != nil {
		path := e.at(r, "actions", full.index, full.path)
		if star != nil {
			e.report(r, ruleIAMFullAdmin, path, full.offset, "*", st.subject(r)+" allows action "+
				strconv.Quote(full.value)+" on resource \"*\": full administrator access to every service and resource", nil)
		} else {
			e.report(r, ruleIAMWildcardAction, path, full.offset, "*", st.subject(r)+" allows action "+
				strconv.Quote(full.value)+": every action of every AWS service"+onTargets(targets), nil)
		}
		return
	}
	for k := range actions {
		a := &actions[k]
		svc, ok := serviceWildcard(a.value)
		if !ok {
			continue
		}
		path := e.at(r, "actions", a.index, a.path)
		allows := st.subject(r) + " allows " + strconv.Quote(a.value)
		cause := strings.ToLower(svc)
		switch cause {
		case "iam":
			e.report(r, ruleIAMWildcardAction, path, a.offset, cause,
				allows+": every IAM action, including creating and attaching policies, so the holder can make itself administrator", nil)
		case "sts":
			e.report(r, ruleIAMWildcardAction, path, a.offset, cause,
				allows+": every STS action, including assuming any role whose trust policy lets it", nil)
		default:
			e.report(r, ruleIAMServiceWildcard, path, a.offset, cause,
				allows+": every "+svc+" action, including destructive and permission-changing ones", nil)
		}
	}
	if star != nil && len(actions) > 0 {
		e.report(r, ruleIAMWildcardResource, e.at(r, "resources", star.index, star.path), star.offset, "*",
			st.subject(r)+" applies "+listActions(actions)+" to resource \"*\": every resource in the account", nil)
	}
}

func firstItem(items []item, match func(string) bool) *item {
	for k := range items {
		if match(items[k].value) {
			return &items[k]
		}
	}
	return nil
}

// serviceWildcard returns the service of an action "service:*".
func serviceWildcard(action string) (string, bool) {
	svc, rest, ok := strings.Cut(action, ":")
	if !ok || rest != "*" || svc == "" || strings.Contains(svc, "*") {
		return "", false
	}
	return svc, true
}

func listActions(actions []item) string {
	const shown = 3
	words := make([]string, 0, shown+1)
	for k, a := range actions {
		if k == shown {
			words = append(words, plural(len(actions)-shown, "more action"))
			break
		}
		words = append(words, a.value)
	}
	return joinAnd(words)
}

// listResources names the first resource and counts the rest.
func listResources(targets []item) string {
	if len(targets) == 1 {
		return targets[0].value
	}
	return targets[0].value + " and " + plural(len(targets)-1, "more resource")
}

func onTargets(targets []item) string {
	if len(targets) == 0 {
		return ""
	}
	return " on " + listResources(targets)
}

// plural formats "1 more resource", "2 more resources".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
