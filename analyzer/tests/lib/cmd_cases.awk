# The case labels of the switches on the ioctl command, read as text, for
# the tests' completeness checks (independent of the analyzer): for each
# case label of a switch whose controlling expression mentions the
# identifier `cmd`, prints its line and the upper-case identifiers of its
# expression ("1184 EVIOC_MASK_SIZE EVIOCSFF"). Strips comments, strings
# and preprocessor lines; tracks braces to know which switch a case is in.
# usage: awk -f cmd_cases.awk FILE.c
{
	line = $0
	# block comments spanning lines
	if (incomment) {
		if (index(line, "*/") == 0) next
		line = substr(line, index(line, "*/") + 2); incomment = 0
	}
	gsub(/\/\*([^*]|\*+[^*\/])*\*+\//, " ", line)
	if (match(line, /\/\*/)) { line = substr(line, 1, RSTART - 1); incomment = 1 }
	sub(/\/\/.*/, "", line)
	gsub(/"([^"\\]|\\.)*"/, "\"\"", line)
	gsub(/'([^'\\]|\\.)*'/, "' '", line)
	if (line ~ /^[ \t]*#/) next
	rest = line
	while (length(rest) > 0) {
		if (match(rest, /^switch[ \t]*\(/) || match(rest, /[^A-Za-z0-9_]switch[ \t]*\(/)) {
			# the controlling expression, up to the balancing parenthesis
			start = RSTART + RLENGTH; d = 1; expr = ""
			for (i = start; i <= length(rest) && d > 0; i++) {
				ch = substr(rest, i, 1)
				if (ch == "(") d++
				else if (ch == ")") d--
				if (d > 0) expr = expr ch
			}
			pending = (expr ~ /(^|[^A-Za-z0-9_])cmd([^A-Za-z0-9_]|$)/) ? 1 : 0
			havepending = 1
			pre = substr(rest, 1, RSTART); rest = substr(rest, i)
			scan(pre)
			continue
		}
		scan(rest); rest = ""
	}
}
function scan(s,   k, ch, m, name) {
	for (k = 1; k <= length(s); k++) {
		ch = substr(s, k, 1)
		if (ch == "{") {
			depth++
			if (havepending) { sw[depth] = pending; havepending = 0 } else sw[depth] = sw[depth - 1] == 1 ? 2 : sw[depth - 1]
		} else if (ch == "}") {
			depth--
		} else if (substr(s, k, 4) == "case" && (k == 1 || substr(s, k - 1, 1) !~ /[A-Za-z0-9_]/) && substr(s, k + 4, 1) ~ /[ \t]/) {
			m = substr(s, k + 5)
			sub(/^[ \t]*/, "", m)
			if (sw[depth] == 1)
				case_names(m)
		}
	}
}

# the upper-case identifiers of a case expression, up to its colon
function case_names(m,   out) {
	sub(/:.*/, "", m)
	out = ""
	while (match(m, /[A-Za-z_][A-Za-z0-9_]*/)) {
		if (substr(m, RSTART, RLENGTH) ~ /^[A-Z_][A-Z0-9_]*$/)
			out = out " " substr(m, RSTART, RLENGTH)
		m = substr(m, RSTART + RLENGTH)
	}
	if (out != "")
		print FNR out
}
