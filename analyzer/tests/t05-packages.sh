#!/bin/bash
# Every program the Makefiles and the scripts call comes from a Debian
# package the top-level Makefile lists (make print-deps), from a package
# every Debian system has (Essential: yes, or Priority: required), or from
# a direct dependency of a listed package. The commands are read from the
# files themselves, not from a list kept here: a command added to a test
# without its package fails this test.
#
# Read: the top-level and analyzer Makefiles (recipes and $(shell ...)),
# analyzer/facts-format.sh, analyzer/tests/*.sh, kernel-glue/*.sh and
# kernel-glue/tests/*.sh, qemu-check/run.sh, qemu-check/tests/*.sh and any
# script under qemu-check/host/ (today only C programs, which run.sh
# builds with gcc). Not qemu-check/guest/: ioctl_check.c is linked
# statically (libc6-dev) and runs inside the guest, whose only other
# program is the busybox binary run.sh copies from busybox-static.
#
# A small shell tokenizer (the awk program below) takes the first word of
# every simple command, after | || && ; & newlines, ( and $( `` <( and in
# case branches, after if/then/do/while/!/time/{, after assignments
# (X=y cmd), and the command that timeout, env, exec, nice, nohup, xargs,
# time and `command` run (`command -v X` counts as a use of X); it reads
# the strings given to eval, trap and sh -c as code, and for a function of
# the script that runs its arguments ("$@", like t41's check) the first
# word after its literal arguments. Skipped: bash builtins and keywords
# (compgen -b, compgen -k), functions the file defines, words that are
# variables or substitutions ("$scan", $(...)), relative paths (the repo's
# own scripts), here-documents (C, Python), comments and quoted text.
set -u
w=$WORK/packages
rm -rf "$w"
mkdir -p "$w"

if ! command -v dpkg-query > /dev/null; then
	echo "not ok - no dpkg-query (package dpkg): the packages cannot be looked up on a system that is not Debian"
	exit 0
fi

# the awk program: reads one file, prints "C<TAB>name<TAB>line" for a
# command run, "R<TAB>name<TAB>line" for `command -v name`, and
# "E<TAB>line<TAB>message" when the file ends inside a quote, a $( or a
# here-document (the file was not understood: every command after the
# place it went wrong may be missing)
tokenizer=$(cat <<'AWK'
function push(t) { D++; T[D] = t; TLN[D] = line; initctx(D) }
function pop() { if (D > 0) D-- }
function initctx(d) {
	CP[d] = 1; WR[d] = ""; WL[d] = ""; WLN[d] = 0; WST[d] = 0; RD[d] = 0
	CL[d] = 0; DB[d] = 0; WM[d] = ""; WS[d] = 0; WSKIP[d] = 0; WDUR[d] = 0
	WREF[d] = 0; WQ[d] = 0; FNEXT[d] = 0; AD[d] = 0
}
function iscode(t) { return t == "top" || t == "cmdsub" || t == "paren" || t == "procsub" || t == "btick" || t == "array" }
function owner(   d) { for (d = D; d > 0 && !iscode(T[d]); d--) ; return d }
function startword(o) { if (!WST[o]) { WST[o] = 1; WLN[o] = line } }
function add(o, raw, lit) { startword(o); WR[o] = WR[o] raw; WL[o] = WL[o] lit }
function sep(d) { CP[d] = 1; WM[d] = ""; RD[d] = 0 }
function emit(kind, name, ln) { NC++; CK[NC] = kind; CN[NC] = name; CLN[NC] = ln }
function queue(s, ln) { NQ++; Q[NQ] = s; QL[NQ] = ln }
function err(msg) { NE++; EM[NE] = msg; EL[NE] = line }
function base(s) { sub(/.*\//, "", s); return s }
# ends the word being read in code context d; i is where it ended (for
# the lookahead of a function definition, name())
function ew(d, i,    raw, lit, ln) {
	SKIP = 0
	if (!WST[d]) return i
	raw = WR[d]; lit = WL[d]; ln = WLN[d]
	WR[d] = ""; WL[d] = ""; WST[d] = 0; WLN[d] = 0
	POS = i
	classify(d, raw, lit, ln)
	return SKIP ? SKIP : i
}
function classify(d, raw, lit, ln,    lvl, st, name, rest) {
	if (RD[d]) { RD[d] = 0; return }
	if (DB[d]) { if (raw == "]]") DB[d] = 0; return }
	if (T[d] == "array") return
	lvl = CL[d]
	if (lvl > 0) {
		st = CS[d, lvl]
		if (st == 1) { CS[d, lvl] = 2; return }
		if (st == 2) { CS[d, lvl] = 3; return }
		if (st == 3) { if (raw == "esac") { CL[d]--; CP[d] = 0 } return }
		if (st == 4 && CP[d] && raw == "esac") { CL[d]--; CP[d] = 0; return }
	}
	if (FNEXT[d]) { FNEXT[d] = 0; FN[lit] = 1; CP[d] = 1; skipparens(); return }
	if (!CP[d]) { if (WM[d] != "") wrapper_arg(d, raw, lit, ln); return }
	# command position
	if (raw ~ /^[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=/) return
	if (raw ~ /^["']?\$/ || raw ~ /^\(/ || raw ~ /^`/ || raw ~ /^<\(/) { CP[d] = 0; return }
	name = lit
	if (name == "if" || name == "then" || name == "elif" || name == "else" || name == "do" ||
	    name == "while" || name == "until" || name == "!" || name == "time" || name == "{") return
	if (name == "fi" || name == "done" || name == "}" || name == "esac") { CP[d] = 0; return }
	if (name == "case") { CL[d]++; CS[d, CL[d]] = 1; CP[d] = 0; return }
	if (name == "[[") { DB[d] = 1; CP[d] = 0; return }
	if (name == "for" || name == "select") { CP[d] = 0; return }
	if (name == "function") { FNEXT[d] = 1; CP[d] = 0; return }
	rest = substr(S, POS)
	if (match(rest, /^[ \t]*\([ \t]*\)/)) { FN[name] = 1; SKIP = POS + RLENGTH; CP[d] = 1; return }
	emit("C", name, ln)
	CP[d] = 0
	name = base(name)
	if (name == "timeout" || name == "env" || name == "command" || name == "exec" || name == "nice" ||
	    name == "nohup" || name == "xargs" || name == "time" || name == "sh" || name == "bash" ||
	    name == "eval" || name == "trap" || (name in WRAPFN)) {
		WM[d] = name; WS[d] = 0; WSKIP[d] = 0; WDUR[d] = 0; WREF[d] = 0; WQ[d] = 0
	}
}
function skipparens(   rest) {
	rest = substr(S, POS)
	if (match(rest, /^[ \t]*\([ \t]*\)/)) SKIP = POS + RLENGTH
}
# an argument of a command that runs another: is this word that command?
function wrapper_arg(d, raw, lit, ln,    k, opt) {
	k = WM[d]; WS[d]++
	opt = (lit ~ /^-/)
	if (WSKIP[d]) { WSKIP[d] = 0; return }
	if (k == "eval") { queue(lit, ln); return }
	if (k == "trap") { if (lit !~ /^-/) queue(lit, ln); WM[d] = ""; return }
	if (k == "sh" || k == "bash") {
		if (WQ[d]) { queue(lit, ln); WM[d] = ""; return }
		if (lit == "-c") WQ[d] = 1
		return
	}
	if (k == "timeout") {
		if (opt) { if (lit == "-s" || lit == "-k") WSKIP[d] = 1; return }
		if (!WDUR[d]) { WDUR[d] = 1; return }
	} else if (k == "env") {
		if (opt) { if (lit == "-u" || lit == "-C" || lit == "-S") WSKIP[d] = 1; return }
		if (raw ~ /^[A-Za-z_][A-Za-z0-9_]*=/) return
	} else if (k == "command") {
		if (lit == "-v" || lit == "-V") { WREF[d] = 1; return }
		if (opt) return
		if (WREF[d]) { if (raw !~ /^["']?\$/) emit("R", lit, ln); WM[d] = ""; return }
	} else if (k == "nice") {
		if (opt) { if (lit == "-n") WSKIP[d] = 1; return }
	} else if (k == "xargs") {
		if (opt) { if (lit ~ /^-[adEILnPs]$/) WSKIP[d] = 1; return }
	} else if (k == "time") {
		if (opt) { if (lit == "-f" || lit == "-o") WSKIP[d] = 1; return }
	} else if (k == "exec" || k == "nohup") {
		if (opt) return
	} else {
		# a function of this script that runs its arguments: its own
		# literal arguments (strings, numbers, options, --) come first
		if (raw ~ /^'/ || (raw ~ /^"/ && raw !~ /^"\$/) || lit ~ /^[0-9]/ || opt) return
	}
	WM[d] = ""; CP[d] = 1
	classify(d, raw, lit, ln)
}
# $ at S[i], in a word of code context o: returns where the word goes on
function dollar(i, o,    c2, j, c) {
	c2 = substr(S, i + 1, 1)
	if (c2 == "(") {
		if (substr(S, i + 2, 1) == "(") { add(o, "$((", "$(("); push("arith"); return i + 3 }
		add(o, "$(", "$("); push("cmdsub"); return i + 2
	}
	if (c2 == "{") { add(o, "${", "${"); push("brace"); return i + 2 }
	if (c2 == "'") {
		for (j = i + 2; j <= LEN; j++) {
			c = substr(S, j, 1)
			if (c == "\\") { j++; continue }
			if (c == "\n") line++
			if (c == "'") break
		}
		add(o, "$'", "$'"); return j + 1
	}
	if (match(substr(S, i + 1), /^([A-Za-z_][A-Za-z0-9_]*|[0-9#?@*!$-])/)) {
		add(o, "$" substr(S, i + 1, RLENGTH), "$" substr(S, i + 1, RLENGTH)); return i + 1 + RLENGTH
	}
	add(o, "$", "$"); return i + 1
}
# after a newline: skip the bodies of the here-documents begun on its line
function heredocs(i,    h, e, l, cmp) {
	for (h = 1; h <= NH; h++) {
		for (;;) {
			if (i > LEN) { err("here-document " HD[h] " not closed"); NH = 0; return i }
			e = index(substr(S, i), "\n")
			l = e ? substr(S, i, e - 1) : substr(S, i)
			i += e ? e : length(l) + 1
			line++
			cmp = l
			if (HS[h]) sub(/^\t+/, "", cmp)
			if (cmp == HD[h]) break
		}
	}
	NH = 0
	return i
}
function tokenize(s, line0,    i, c, c2, o, t, j, d, delim, strip) {
	KIND["dq"] = "double-quoted string"; KIND["brace"] = "${"; KIND["arith"] = "$(( or (("
	KIND["cmdsub"] = "$("; KIND["paren"] = "( subshell"; KIND["procsub"] = "<( or >("
	KIND["btick"] = "`"; KIND["array"] = "( of an array"
	S = s; LEN = length(s); line = line0; D = 0; T[0] = "top"; initctx(0); NH = 0
	i = 1
	while (i <= LEN) {
		c = substr(S, i, 1); t = T[D]
		if (t == "dq") {
			o = owner()
			if (c == "\"") { pop(); add(o, "\"", ""); i++ }
			else if (c == "\\") { c2 = substr(S, i + 1, 1); if (c2 == "\n") line++; add(o, c2, c2); i += 2 }
			else if (c == "$") i = dollar(i, o)
			else if (c == "`") { add(o, "`", ""); push("btick"); i++ }
			else { if (c == "\n") line++; add(o, c, c); i++ }
			continue
		}
		if (t == "brace") {
			o = owner()
			if (c == "}") { pop(); i++ }
			else if (c == "\"") { push("dq"); i++ }
			else if (c == "'") {
				j = index(substr(S, i + 1), "'")
				if (!j) { err("quote not closed"); break }
				c2 = substr(S, i + 1, j - 1); line += gsub(/\n/, "", c2); i += j + 1
			}
			else if (c == "\\") i += 2
			else if (c == "$") i = dollar(i, o)
			else { if (c == "\n") line++; i++ }
			continue
		}
		if (t == "arith") {
			o = owner()
			if (c == "(") { AD[D]++; i++ }
			else if (c == ")") {
				if (AD[D] > 0) { AD[D]--; i++ }
				else { pop(); i += (substr(S, i + 1, 1) == ")") ? 2 : 1 }
			}
			else if (c == "$") i = dollar(i, o)
			else { if (c == "\n") line++; i++ }
			continue
		}
		# code: top, $( ), ( ), <( ), ` `, and array assignments
		if (c == "`" && t == "btick") { i = ew(D, i); pop(); i++; continue }
		if (c == "\n") {
			i = ew(D, i); i++; line++
			if (CL[D] == 0 || CS[D, CL[D]] == 4) sep(D)
			if (NH) i = heredocs(i)
			continue
		}
		if (c == " " || c == "\t") { j = ew(D, i); i = (j != i) ? j : i + 1; continue }
		if (c == "#" && !WST[D]) {
			j = index(substr(S, i), "\n"); i = j ? i + j - 1 : LEN + 1; continue
		}
		if (c == "\\") {
			c2 = substr(S, i + 1, 1)
			if (c2 == "\n") { line++; i += 2; continue }
			add(D, "\\" c2, c2); i += 2; continue
		}
		if (c == "'") {
			j = index(substr(S, i + 1), "'")
			if (!j) { err("quote not closed"); break }
			c2 = substr(S, i + 1, j - 1)
			startword(D)
			add(D, "'" c2 "'", c2)
			line += gsub(/\n/, "", c2)
			i += j + 1
			continue
		}
		if (c == "\"") { add(D, "\"", ""); push("dq"); i++; continue }
		if (c == "$") { i = dollar(i, D); continue }
		if (c == "`") { add(D, "`", ""); push("btick"); i++; continue }
		if (index("|&;<>()", c)) {
			c2 = substr(S, i + 1, 1)
			# 2>file, 2>&1: the number is the descriptor's, not a word
			if ((c == "<" || c == ">") && c2 != "(" && WST[D] && WR[D] ~ /^[0-9]+$/) {
				WR[D] = ""; WL[D] = ""; WST[D] = 0
			}
			if (c == "(" && WST[D] && WR[D] ~ /=$/) { add(D, "(", ""); push("array"); i++; continue }
			if (DB[D] && c != ";") { j = ew(D, i); i = (j != i) ? j : i + 1; continue }
			j = ew(D, i)
			if (j != i) { i = j; continue }
			if (c == "(") {
				if (c2 == "(") { add(D, "((", ""); push("arith"); i += 2 }
				else if (CL[D] && CS[D, CL[D]] == 3) i++
				else if (CP[D]) { CP[D] = 0; push("paren"); i++ }
				else { push("array"); i++ }
			} else if (c == ")") {
				if (CL[D] && CS[D, CL[D]] == 3) { CS[D, CL[D]] = 4; CP[D] = 1; i++ }
				else if (D > 0) { d = T[D]; pop(); i++; if (d == "paren") CP[D] = 0 }
				else { err("unbalanced )"); i++ }
			} else if (c == "|") {
				i += (c2 == "|" || c2 == "&") ? 2 : 1
				if (!(CL[D] && CS[D, CL[D]] == 3)) sep(D)
			} else if (c == "&") {
				if (c2 == ">") { i += (substr(S, i + 2, 1) == ">") ? 3 : 2; RD[D] = 1 }
				else { i += (c2 == "&") ? 2 : 1; sep(D) }
			} else if (c == ";") {
				if (c2 == ";" || c2 == "&") {
					i += 2; if (substr(S, i, 1) == "&") i++
					if (CL[D]) { CS[D, CL[D]] = 3; CP[D] = 0 }
				} else { i++; sep(D) }
			} else if (c == "<") {
				if (c2 == "(") { add(D, "<(", ""); push("procsub"); i += 2 }
				else if (c2 == "<" && substr(S, i + 2, 1) == "<") { i += 3; RD[D] = 1 }
				else if (c2 == "<") {
					i += 2; strip = 0
					if (substr(S, i, 1) == "-") { strip = 1; i++ }
					while (substr(S, i, 1) == " " || substr(S, i, 1) == "\t") i++
					delim = ""
					while (i <= LEN && !index(" \t\n;|&<>()", substr(S, i, 1))) {
						c2 = substr(S, i, 1)
						if (c2 != "'" && c2 != "\"" && c2 != "\\") delim = delim c2
						i++
					}
					NH++; HD[NH] = delim; HS[NH] = strip
				}
				else { i += (c2 == "&" || c2 == ">") ? 2 : 1; RD[D] = 1 }
			} else {	# >
				if (c2 == "(") { add(D, ">(", ""); push("procsub"); i += 2 }
				else { i += (c2 == ">" || c2 == "&" || c2 == "|") ? 2 : 1; RD[D] = 1 }
			}
			continue
		}
		add(D, c, c); i++
	}
	ew(D, i)
	if (D > 0) err("the " KIND[T[D]] " opened at line " TLN[D] " is not closed")
	if (NH > 0) err("here-document " HD[1] " not closed")
	if (CL[0] > 0) err("case not closed by esac")
}
# the functions the file defines, and which of them run their arguments
function functions(   i, name, j, body, one) {
	for (i = 1; i <= NL; i++) {
		if (!match(TL[i], /^[ \t]*(function[ \t]+)?[A-Za-z_][A-Za-z0-9_:.-]*[ \t]*\(\)/)) continue
		name = substr(TL[i], RSTART, RLENGTH)
		sub(/^[ \t]*(function[ \t]+)?/, "", name); sub(/[ \t]*\(\)$/, "", name)
		FN[name] = 1
		one = (TL[i] ~ /\}[ \t]*(#.*)?$/)
		for (j = i; j <= NL; j++) {
			if (TL[j] ~ /(^|[;&|{(]|then|do|if|!)[ \t]*"\$@"/ && !(j > i && TL[j - 1] ~ /\\$/)) WRAPFN[name] = 1
			if (one || (j > i && TL[j] ~ /^\}/)) break
		}
	}
}
# Makefiles: a recipe line is shell as it stands once make has expanded
# it; make's own variables and functions become a variable word ($MK), and
# $(shell ...) is a command substitution. Line numbers are kept.
function mk(s, recipe,    r) {
	gsub(/\$\$/, "\001", s)
	r = expand(s, recipe)
	gsub(/\001/, "$", r)
	return r
}
function expand(s, recipe,    res, i, c, c2, cl, depth, j, cj, inner, cmd) {
	res = ""; i = 1
	while (i <= length(s)) {
		c = substr(s, i, 1)
		if (c != "$") { res = res c; i++; continue }
		c2 = substr(s, i + 1, 1)
		if (c2 == "(" || c2 == "{") {
			cl = (c2 == "(") ? ")" : "}"
			depth = 1
			for (j = i + 2; j <= length(s) && depth > 0; j++) {
				cj = substr(s, j, 1)
				if (cj == c2) depth++
				else if (cj == cl) depth--
			}
			inner = substr(s, i + 2, j - i - 3)
			if (inner ~ /^shell[ \t]/) {
				cmd = expand(substr(inner, 7), recipe)
				if (recipe) res = res "$(" cmd ")"
				else { NSH++; SH[NSH] = cmd; res = res "$MK" }
			} else res = res "$MK"
			i = j
		} else { res = res "$MK"; i += 2 }
	}
	return res
}
function maketext(   i, start, l, k, inrule, body, out, n) {
	inrule = 0
	for (i = 1; i <= NL; i++) {
		start = i; l = TL[i]
		while (l ~ /\\$/ && i < NL) { l = substr(l, 1, length(l) - 1) " " TL[++i] }
		for (k = start; k <= i; k++) OUT[k] = ""
		if (l ~ /^\t/) {
			if (inrule) { body = substr(l, 2); sub(/^[@+ \t-]*/, "", body); OUT[start] = mk(body, 1) }
			continue
		}
		if (l ~ /^[ \t]*(#|$)/) continue
		NSH = 0
		mk(l, 0)
		if (l ~ /^[ \t]*((export|override)[ \t]+)?[A-Za-z_][A-Za-z0-9_.-]*[ \t]*(::=|:=|\?=|\+=|!=|=)/) inrule = 0
		else inrule = (l ~ /:/)
		for (k = 1; k <= NSH; k++) OUT[start] = OUT[start] (k > 1 ? " ; " : "") SH[k]
	}
	out = ""
	for (i = 1; i <= NL; i++) out = out OUT[i] "\n"
	return out
}
{ TL[++NL] = $0 }
END {
	if (mode == "make") text = maketext()
	else {
		functions()
		text = ""
		for (i = 1; i <= NL; i++) text = text TL[i] "\n"
	}
	tokenize(text, 1)
	# the code given to eval, trap and sh -c (which may queue more)
	for (q = 1; q <= NQ; q++) tokenize(Q[q], QL[q])
	for (i = 1; i <= NC; i++)
		if (!(CN[i] in FN)) print CK[i] "\t" CN[i] "\t" CLN[i]
	for (i = 1; i <= NE; i++) print "E\t" EL[i] "\t" EM[i]
}
AWK
)

cd "$ROOT" || { echo "not ok - no ROOT ($ROOT)"; exit 0; }
files=(Makefile analyzer/Makefile analyzer/facts-format.sh analyzer/tests/*.sh analyzer/tests/lib/*.sh kernel-glue/*.sh
	kernel-glue/tests/*.sh qemu-check/run.sh qemu-check/tests/*.sh)
for f in qemu-check/host/*; do
	[ -f "$f" ] && [ "$(head -c 2 "$f")" = "#!" ] && files+=("$f")
done
: > "$w/commands.tsv"
nerr=0
for f in "${files[@]}"; do
	mode=sh
	[ "$(basename "$f")" = Makefile ] && mode=make
	if ! awk -v mode="$mode" "$tokenizer" "$f" > "$w/one.tsv" 2> "$w/awk.err"; then
		echo "not ok - reading $f: awk: $(head -c 300 "$w/awk.err")"
		nerr=$((nerr + 1))
		continue
	fi
	while IFS=$'\t' read -r kind a b; do
		if [ "$kind" = E ]; then
			echo "not ok - $f:$a: $b (commands after it may be missed)"
			nerr=$((nerr + 1))
		else
			printf '%s\t%s\t%s:%s\n' "$kind" "$a" "$f" "$b" >> "$w/commands.tsv"
		fi
	done < "$w/one.tsv"
done

# Not packages: bash's builtins and keywords (those of the bash running
# this test, which runs the scripts too).
declare -A builtin
while read -r b; do builtin[$b]=1; done < <(compgen -b; compgen -k)
# Commands that need no package of their own: none so far. (Add a name
# here only with a comment saying why no package provides it.)
allow=()
for a in "${allow[@]}"; do builtin[$a]=1; done
# The functions of the shared test library (tests/lib/*.sh), which tests
# source: not commands. The library's own commands are read above.
for f in "$ROOT"/analyzer/tests/lib/*.sh; do
	for fn in $(sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)() *{.*/\1/p' "$f"); do
		builtin[$fn]=1
	done
done

# first use and number of uses of each command
declare -A first uses
order=()
while IFS=$'\t' read -r kind name where; do
	[ -n "${builtin[$name]:-}" ] && continue
	case "$name" in
	/*) case "$name" in "$ROOT"/*) continue ;; esac ;;
	*/*) continue ;;	# a script of the repo, by its relative path
	esac
	if [ -z "${first[$name]:-}" ]; then
		first[$name]=$where
		order+=("$name")
	fi
	uses[$name]=$((${uses[$name]:-0} + 1))
done < "$w/commands.tsv"

# the packages the Makefile lists, and their direct dependencies
if ! deps=$(make -s --no-print-directory -C "$ROOT" print-deps 2> "$w/print-deps.err"); then
	echo "not ok - make print-deps failed: $(head -c 300 "$w/print-deps.err")"
	exit 0
fi
declare -A listed depof
for p in $deps; do
	[ -n "${listed[$p]:-}" ] && continue
	listed[$p]=1
	dpkg-query -W -f='${Depends}, ${Pre-Depends}\n' "$p" 2> /dev/null | tr ',|' '\n\n' |
		sed 's/([^)]*)//; s/:any//; s/[[:space:]]//g' | grep . > "$w/depends"
	while read -r q; do
		[ -n "${depof[$q]:-}" ] || depof[$q]=$p
	done < "$w/depends"
done

# Where each command is, and the paths dpkg may know it by: usrmerge
# (dpkg knows /bin/grep, not /usr/bin/grep); an alternative (cc, awk) or
# a shim earlier in PATH is owned by nobody, its target or /usr/bin's
# copy is. One dpkg-query for them all (each call reads dpkg's database).
declare -A where cands owner
for c in "${order[@]}"; do
	if [[ $c == /* ]]; then
		[ -x "$c" ] && where[$c]=$c
	else
		where[$c]=$(type -P "$c")
	fi
	[ -n "${where[$c]}" ] || continue
	b=${c##*/}
	cands[$c]="${where[$c]} /usr/bin/$b /bin/$b /usr/sbin/$b /sbin/$b $(readlink -f "${where[$c]}")"
done
paths=$(for c in "${!cands[@]}"; do for p in ${cands[$c]}; do [ -e "$p" ] && echo "$p"; done; done | sort -u)
# "package[, package]: path"; diversions are not owners
while IFS= read -r l; do
	case "$l" in diversion\ by*) continue ;; esac
	p=${l%%: *} path=${l#*: }
	p=${p%%,*}
	[ -n "${owner[$path]:-}" ] || owner[$path]=${p%%:*}
done < <([ -n "$paths" ] && dpkg-query -S $paths 2> /dev/null)
declare -A pkgof pathof
for c in "${!cands[@]}"; do
	for p in ${cands[$c]}; do
		if [ -n "${owner[$p]:-}" ]; then
			pkgof[$c]=${owner[$p]} pathof[$c]=$p
			break
		fi
	done
done
declare -A prio
while read -r p e pr; do
	prio[$p]="$e $pr"
done < <(dpkg-query -W -f='${Package} ${Essential} ${Priority}\n' $(printf '%s\n' "${pkgof[@]}" | sort -u) 2> /dev/null)

bad=0 nessential=0 nlisted=0 ndep=0
for c in "${order[@]}"; do
	from=${first[$c]}
	n="${uses[$c]} uses"
	[ "${uses[$c]}" -eq 1 ] && n="1 use"
	if [ -z "${where[$c]:-}" ]; then
		echo "not ok - $c is not installed (from $from)"
		bad=$((bad + 1))
		continue
	fi
	pkg=${pkgof[$c]:-} path=${pathof[$c]:-}
	if [ -z "$pkg" ]; then
		echo "not ok - $c (from $from) is ${where[$c]}, which no Debian package provides"
		bad=$((bad + 1))
		continue
	fi
	ess=${prio[$pkg]:-}
	if [ -n "${listed[$pkg]:-}" ]; then
		echo "ok - $c ($from, $n): $path is in $pkg, in the Makefile's package list"
		nlisted=$((nlisted + 1))
	elif [ "${ess% *}" = yes ]; then
		echo "ok - $c ($from, $n): $path is in $pkg (Essential)"
		nessential=$((nessential + 1))
	elif [ "${ess#* }" = required ]; then
		echo "ok - $c ($from, $n): $path is in $pkg (priority required)"
		nessential=$((nessential + 1))
	elif [ -n "${depof[$pkg]:-}" ]; then
		echo "ok - $c ($from, $n): $path is in $pkg, a dependency of ${depof[$pkg]} (listed)"
		ndep=$((ndep + 1))
	else
		echo "not ok - $c (from $from) is provided by package $pkg, which is not in the Makefile's package list"
		bad=$((bad + 1))
	fi
done

summary="${#files[@]} files, ${#order[@]} commands: $nlisted from listed packages, $ndep from their dependencies, $nessential Essential or required, $bad not provided"
if [ $nerr -eq 0 ] && [ ${#order[@]} -gt 0 ]; then
	echo "ok - every file read to its end: $summary"
else
	echo "not ok - $nerr files not read to their end: $summary"
fi
