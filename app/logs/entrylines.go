package logs

// EntryLines is, with Options.IncludeAssignments, the 1-based line number
// of each analysed entry's first line, beside Assignments: where a
// template's entries stand in the input (the AI help quotes a template's
// examples and their neighbours from it).
func (r *Result) EntryLines() []int { return r.entryLines }
