/* Local flags: a function's scalar local variable with a constant
 * initialiser, set in some branches and tested later
 * (__tun_chr_ioctl: `bool do_notify = false;`, set by four cases of the
 * command switch, `if (do_notify) netdev_state_change(...)` after it).
 * The walk of one function notes the candidates, the stores to them and
 * the ifs that test them; at the function's end a candidate qualifies
 * only if its value can change by those stores alone: its address is
 * never taken, it is never an operand of inline assembly, and no macro
 * assigns an lvalue the walk could not name. Ifs on variables that do
 * not qualify lose their flag (they are ordinary conditions).
 *
 * classify.c uses the result on a command's path: a qualified flag that
 * nothing on the path sets to anything but 0 still holds its initial 0,
 * so `if (flag)` does not run. */
#ifndef IOCTL_SCAN_LOCAL_FLAGS_H
#define IOCTL_SCAN_LOCAL_FLAGS_H

#include <clang-c/Index.h>

#include "facts.h"

struct local_flags;

struct local_flags *local_flags_new(void);
/* The key naming a local variable (not a parameter) that expression e
 * refers to ("do_notify@3094"), or NULL. */
char *local_flag_key(CXCursor e);
/* A local variable's declaration: a candidate if it is a scalar with a
 * constant initialiser. */
void local_flags_declare(struct local_flags *lf, CXCursor var);
/* e (an operand of & or of inline assembly) may write the variable it
 * names behind the walk's back. */
void local_flags_escape(struct local_flags *lf, CXCursor e);
/* Something wrote a local the walk cannot name: no flag qualifies. */
void local_flags_poison(struct local_flags *lf);
/* An if whose condition is var (neg: !var): when var names a local,
 * s->flag and s->flag_neg say so, pending the function's end. */
void local_flags_note_if(struct local_flags *lf, CXCursor var, int neg, struct stmt *s);
/* A statement's key naming a local whose value is followed (facts.h
 * value_local, test_local): cleared at the function's end unless every
 * write to the local is a store the walk saw. */
void local_flags_note_use(struct local_flags *lf, char **key);
/* At the function's end: fills f->flags with the qualified flags that
 * some if tests, clears the flag of the other ifs, and frees lf. */
void local_flags_resolve(struct local_flags *lf, struct function_facts *f);

#endif
