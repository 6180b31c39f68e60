// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioctl_check: the guest half of the QEMU check, run as init.
 *
 * Mounts what it needs, loads the test policy, labels the test devices,
 * checks that a policy without the ioctl_semantics capability keeps its
 * meaning (nothing denied or logged), loads the same policy with the
 * capability and then, for every case in /cases (written on the host by make_cases:
 * device, command, the value from the generated report, the hand-checked class and
 * capability of cases.conf, which the report agrees with), issues the command in
 * each test domain and decides from errno and the kernel's AVC records
 * whether SELinux denied it. A denial's record must name the class the case
 * expects, the handler that serves the command and the mode
 * (ioctl_class=, ioctl_handler=, ioctl_mode=). Each group of ioctls runs
 * first and its records are read after, once: a pass is a case with no
 * record a second after the group's last ioctl. The expected outcome
 * follows from the class alone:
 *
 *   class     ro_t             rw_t                 admin_t
 *   read      pass             pass                 pass
 *   modify    denied {write}   pass                 pass
 *   admin     denied {write}   denied {capability}  pass
 *   none      pass             pass                 pass   (not in table)
 *
 * A userns case is made from a new user namespace, where the caller has
 * every capability of its own namespace and none of the initial one, as
 * rw_t (no capability permission) and userns_t (cap_userns only): an admin
 * command whose driver checks ns_capable() is denied {capability} in
 * cap_userns for rw_t and passes SELinux for userns_t (the driver's own
 * check then fails with EPERM); one whose driver checks capable() is
 * denied in capability for both.
 *
 * A DEVICE socket:FAMILY:TYPE (inet or unix, dgram or stream) is a socket
 * the test domain creates, which it therefore labels: its commands are
 * found through the socket's protocol handlers, and a denial's record must
 * also name the lookup that found the command (ioctl_lookup=socket).
 *
 * The loop driver is a module (/loop.ko), loaded before the cases run, and
 * so are vgem, e1000e (whose PTP clock is /dev/ptp0) and vivid (a V4L2
 * device, /dev/video0), each after the modules it needs (/modules lists
 * them); their
 * handlers are found in the module's own symbols when they load.  A DRM
 * device's driver commands are found through the driver's ioctl table,
 * and a denial's record must name that lookup (ioctl_lookup=drm).  After the
 * other phases it is unloaded and loaded again, and its commands must
 * still be found through the disk's handler, never the fallback.
 *
 * Then: that the permission kept with an open file ends when the AVC's
 * answer changes (setenforce 1, a relabel, another domain), audit mode
 * (modify commands pass for ro_t with an ioctl_mode=audit permissive=1
 * record, once: a polling loop leaves one record per AVC reset), off mode
 * (nothing denied), the counters in
 * /sys/fs/selinux/ioctl_semantics against what was done, a bounded storm of
 * odd command values, and the cost of the lookup (off against enforce).
 * One line per check, then "N passed, N failed"; then the guest reboots,
 * which ends QEMU (-no-reboot).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#define SEMANTICS "/sys/fs/selinux/ioctl_semantics"
#define MAX_CASES 64
#define MAX_STORM 8
#define MAX_COMPAT 16
#define MAX_USERNS 8
/* ioctl in i386's system call table (arch/x86/entry/syscalls/syscall_32.tbl) */
#define NR_IOCTL_32 54
#define EXIT_NOOPEN 250
/* EXIT_NOOPEN + 1: the domain could not be entered */
#define EXIT_NOUNSHARE 252

enum cls { CLS_NONE, CLS_READ, CLS_MODIFY, CLS_ADMIN };
static const char *const cls_names[] = { "none", "read", "modify", "admin" };

struct test_case {
	char dev[64], name[64], handler[64], dir[16], cap[32];
	char lookup[16];	/* the lookup that finds it, as a record says it */
	/* an admin command's capability is checked in: user_ns (ns_capable()
	 * in a namespace the driver chooses) or init_ns (capable()) */
	char ns[16];
	unsigned long value;
	enum cls cls;
	int compat;		/* made as a 32-bit program makes it */
	int userns;		/* made from a new user namespace */
};

/* every case runs in the first NR_DOMAINS; userns_t only for userns cases */
enum domain { RO, RW, ADMIN, USERNS_ADMIN };
#define NR_DOMAINS 3
static const char *const domain_names[] = { "ro", "rw", "admin", "userns" };

static struct test_case cases[MAX_CASES];
static int nr_cases;
static struct test_case compat_cases[MAX_COMPAT];
static int nr_compat;
static struct test_case userns_cases[MAX_USERNS];
static int nr_userns;
static char storm_devs[MAX_STORM][64];
static int nr_storm;
static struct test_case bench;
static int have_bench;

static int passed, failed;
static int kmsg = -1;
static int semantics_present;
static unsigned char argbuf[16384] __attribute__((aligned(64)));
/* a socket's commands take a struct ifreq: name the loopback device, so
 * that no device lookup fails into a capability check of its own */
static unsigned char sockbuf[4096] __attribute__((aligned(64))) = "lo";

static void result(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s - ", ok ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (ok)
		passed++;
	else
		failed++;
}

static void die(const char *what)
{
	printf("not ok - setup: %s: %s\n0 passed, 1 failed\n", what, strerror(errno));
	fflush(stdout);
	sync();
	reboot(RB_AUTOBOOT);
	exit(1);
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

static enum cls cls_of(const char *s)
{
	for (int i = 0; i < 4; i++)
		if (!strcmp(s, cls_names[i]))
			return (enum cls)i;
	return CLS_NONE;
}

static void read_cases(void)
{
	FILE *fp = fopen("/cases", "r");
	char line[512], kind[16], cls[16];

	if (!fp)
		die("open /cases");
	while (fgets(line, sizeof(line), fp)) {
		struct test_case c;

		memset(&c, 0, sizeof(c));
		if (line[0] == '#' || sscanf(line, "%15s", kind) != 1)
			continue;
		if (!strcmp(kind, "storm") && nr_storm < MAX_STORM) {
			sscanf(line, "%*s %63s", storm_devs[nr_storm++]);
			continue;
		}
		if (sscanf(line, "%*s %63s %63s %lx %15s %31s %15s %63s %15s %15s", c.dev, c.name,
			   &c.value, cls, c.cap, c.dir, c.handler, c.lookup, c.ns) < 7)
			continue;
		c.cls = cls_of(cls);
		if (!strcmp(kind, "bench")) {
			bench = c;
			have_bench = 1;
		} else if (!strcmp(kind, "case") && nr_cases < MAX_CASES) {
			cases[nr_cases++] = c;
		} else if (!strcmp(kind, "compat") && nr_compat < MAX_COMPAT) {
			c.compat = 1;
			compat_cases[nr_compat++] = c;
		} else if (!strcmp(kind, "userns") && nr_userns < MAX_USERNS) {
			c.userns = 1;
			userns_cases[nr_userns++] = c;
		}
	}
	fclose(fp);
}

/*
 * The test policy: /policy-nocap.bin as compiled, /policy.bin the same
 * with the ioctl_semantics capability declared.
 */
static void load_policy(const char *path)
{
	int in = open(path, O_RDONLY), out;
	static char buf[1 << 20];
	ssize_t n;

	if (in < 0)
		die(path);
	n = read(in, buf, sizeof(buf));
	close(in);
	out = open("/sys/fs/selinux/load", O_WRONLY);
	if (n <= 0 || out < 0 || write(out, buf, (size_t)n) != n)
		die("load policy");
	close(out);
}

#define LOOP_MODULE "/loop.ko"

static int load_module(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return -1;
	rc = (int)syscall(SYS_finit_module, fd, "", 0);
	close(fd);
	return rc;
}

/* handlers resolved in loop.ko's symbols when the guest loaded it */
static long loop_resolved;

struct counters {
	long lookups, denied, audited, hits_device, hits_socket, hits_drm, hits_fallback;
	long resolved_in_modules;
};

static struct counters read_counters(void);

/* The modules /modules lists (vgem and what it needs), in its order. */
static void load_listed_modules(void)
{
	char path[128];
	FILE *f = fopen("/modules", "r");

	if (!f)
		return;
	while (fgets(path, sizeof(path), f)) {
		path[strcspn(path, "\n")] = 0;
		if (path[0] && load_module(path))
			die(path);
	}
	fclose(f);
}

static int is_socket(const char *dev)
{
	return !strncmp(dev, "socket:", 7);
}

/* Opens a device, or creates the socket socket:FAMILY:TYPE names. */
static int open_dev(const char *dev, int flags)
{
	char family[16], type[16];

	if (!is_socket(dev))
		return open(dev, flags);
	if (sscanf(dev, "socket:%15[^:]:%15s", family, type) != 2)
		return -1;
	return socket(!strcmp(family, "unix") ? AF_UNIX : AF_INET,
		      (!strcmp(type, "stream") ? SOCK_STREAM : SOCK_DGRAM) | SOCK_NONBLOCK, 0);
}

static int set_label(const char *dev, const char *type)
{
	char ctx[64];

	snprintf(ctx, sizeof(ctx), "system_u:object_r:%s", type);
	return setxattr(dev, "security.selinux", ctx, strlen(ctx) + 1, 0);
}

static void label_test_devices(int strict)
{
	for (int i = 0; i < nr_cases; i++)
		if (!is_socket(cases[i].dev) && set_label(cases[i].dev, "test_dev_t") && strict)
			die(cases[i].dev);
	for (int i = 0; i < nr_storm; i++)
		set_label(storm_devs[i], "test_dev_t");
}

static void setup(void)
{
	mkdir("/proc", 0755);
	mkdir("/sys", 0755);
	mkdir("/dev", 0755);
	if (mount("proc", "/proc", "proc", 0, NULL) ||
	    mount("sysfs", "/sys", "sysfs", 0, NULL) ||
	    mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) ||
	    mount("selinuxfs", "/sys/fs/selinux", "selinuxfs", 0, NULL))
		die("mount");
	/* /dev/ptmx opens only with a devpts instance to allocate from */
	mkdir("/dev/pts", 0755);
	if (mount("devpts", "/dev/pts", "devpts", 0, "ptmxmode=0666"))
		die("mount devpts");
	/* every AVC record must reach the log, not a rate-limited sample */
	write_file("/proc/sys/kernel/printk_ratelimit", "0");
	/* the loop driver is a module: its devices exist once it is loaded */
	if (access(LOOP_MODULE, F_OK) == 0) {
		long before = read_counters().resolved_in_modules;

		if (load_module(LOOP_MODULE))
			die("load " LOOP_MODULE);
		loop_resolved = read_counters().resolved_in_modules - before;
	}
	load_listed_modules();
	load_policy("/policy-nocap.bin");
	label_test_devices(1);
	if (write_file("/sys/fs/selinux/enforce", "1"))
		die("setenforce 1");
	semantics_present = access(SEMANTICS, F_OK) == 0;
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg < 0)
		die("open /dev/kmsg");
}

static int set_mode(const char *mode)
{
	return semantics_present ? write_file(SEMANTICS, mode) : -1;
}

/* Drops what is in the kernel log so far. */
static void kmsg_skip(void)
{
	lseek(kmsg, 0, SEEK_END);
}

/*
 * Waits up to wait_ms for an AVC record of pid about ioctl cmd; copies it
 * to rec. The record comes through kauditd, a little after the denial.
 */
static int kmsg_find_avc(pid_t pid, unsigned long cmd, int wait_ms, char *rec, size_t size)
{
	char pidpat[32], cmdpat[32], buf[8192];
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	snprintf(pidpat, sizeof(pidpat), " pid=%d ", (int)pid);
	snprintf(cmdpat, sizeof(cmdpat), "ioctlcmd=0x%lx ", cmd & 0xffff);
	for (int waited = 0; waited <= wait_ms; waited += 10) {
		ssize_t n;

		while ((n = read(kmsg, buf, sizeof(buf) - 1)) > 0) {
			buf[n] = 0;
			if (strstr(buf, "avc:") && strstr(buf, pidpat) && strstr(buf, cmdpat)) {
				snprintf(rec, size, "%s", buf);
				return 1;
			}
		}
		if (n < 0 && errno == EPIPE)
			continue;	/* records overwritten: read on */
		nanosleep(&ts, NULL);
	}
	return 0;
}

static const char *const domain_contexts[] = {
	"system_u:system_r:ro_t", "system_u:system_r:rw_t", "system_u:system_r:admin_t",
	"system_u:system_r:userns_t",
};

/*
 * ioctl(2) as a 32-bit program calls it: int $0x80 from a 64-bit task
 * enters the kernel through the 32-bit system call table, as a compat
 * call (in_compat_syscall(): compat_sys_ioctl(), the LSM's compat hook,
 * the file's compat_ioctl), with 32-bit arguments. This program is static
 * and not position-independent, so its buffers lie below 4 GiB.
 */
static long ioctl_32(int fd, unsigned long cmd, void *arg)
{
	unsigned long a = (unsigned long)arg;
	long ret = NR_IOCTL_32;

	if (a >> 32 || cmd >> 32) {
		errno = EFAULT;
		return -1;
	}
	__asm__ volatile("int $0x80"
			 : "+a"(ret)
			 : "b"((long)fd), "c"(cmd), "d"(a)
			 : "memory", "cc", "r8", "r9", "r10", "r11");
	if (ret < 0 && ret > -4096) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}

/* Runs one ioctl (a 32-bit one for a compat case, from a new user
 * namespace for a userns case) in a child that has entered domain d;
 * returns its errno (0 on success, EXIT_NOOPEN if the device did not open,
 * EXIT_NOUNSHARE if the namespace could not be made). */
static int run_in_domain(enum domain d, const struct test_case *c, pid_t *child)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		void *buf;
		long rc;
		int fd;

		if (write_file("/proc/self/attr/current", domain_contexts[d]))
			_exit(EXIT_NOOPEN + 1);
		fd = open_dev(c->dev, (d == RO ? O_RDONLY : O_RDWR) | O_NONBLOCK);
		if (fd < 0)
			_exit(EXIT_NOOPEN);
		if (c->userns && unshare(CLONE_NEWUSER))
			_exit(EXIT_NOUNSHARE);
		buf = is_socket(c->dev) ? (void *)sockbuf : (void *)argbuf;
		alarm(10);
		rc = c->compat ? ioctl_32(fd, c->value, buf) : ioctl(fd, c->value, buf);
		_exit(rc < 0 ? (errno & 0xff) : 0);
	}
	*child = pid;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* The permission an AVC record names: "{ write }" -> "write". */
static void avc_perm(const char *rec, char *perm, size_t size)
{
	const char *p = strstr(rec, "{ ");
	size_t n = 0;

	perm[0] = 0;
	if (!p)
		return;
	p += 2;
	while (p[n] && p[n] != ' ' && n + 1 < size)
		n++;
	memcpy(perm, p, n);
	perm[n] = 0;
}

/* The value of "name=" in an AVC record, up to the next space. */
static void record_field(const char *rec, const char *name, char *out, size_t size)
{
	char pat[40];
	const char *p;
	size_t n = 0;

	snprintf(pat, sizeof(pat), " %s=", name);
	out[0] = 0;
	p = strstr(rec, pat);
	if (!p)
		return;
	p += strlen(pat);
	while (p[n] && p[n] != ' ' && p[n] != '\n' && n + 1 < size)
		n++;
	memcpy(out, p, n);
	out[n] = 0;
}

/*
 * The AVC records of a group of ioctls. A group runs all its ioctls first
 * and reads the kernel log after, once: a case passes SELinux if no record
 * for its pid and command has come GROUP_WAIT_MS after the group's last
 * ioctl, and a case expected to be denied waits for its record up to
 * DENIAL_WAIT_MS. The records come through kauditd, a little after the
 * ioctl; a wait per group, not per case, can be long enough to be sure.
 */
#define MAX_RECORDS 1024
#define GROUP_WAIT_MS 1000
#define DENIAL_WAIT_MS 3000

static char records[MAX_RECORDS][2048];
static int nr_records;

static void records_begin(void)
{
	kmsg_skip();
	nr_records = 0;
}

/* Keeps the AVC records the kernel log holds now. */
static void records_read(void)
{
	char buf[8192];
	ssize_t n;

	for (;;) {
		n = read(kmsg, buf, sizeof(buf) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* records overwritten: read on */
		if (n <= 0)
			return;
		buf[n] = 0;
		if (strstr(buf, "avc:") && nr_records < MAX_RECORDS) {
			size_t len = strnlen(buf, sizeof(records[0]) - 1);

			memcpy(records[nr_records], buf, len);
			records[nr_records++][len] = 0;
		}
	}
}

/* The first record about pid's ioctl cmd, or NULL; *count: how many. */
static const char *record_of(pid_t pid, unsigned long cmd, int *count)
{
	char pidpat[32], cmdpat[32];
	const char *first = NULL;
	int n = 0;

	snprintf(pidpat, sizeof(pidpat), " pid=%d ", (int)pid);
	snprintf(cmdpat, sizeof(cmdpat), "ioctlcmd=0x%lx ", cmd & 0xffff);
	for (int i = 0; i < nr_records; i++)
		if (strstr(records[i], pidpat) && strstr(records[i], cmdpat)) {
			if (!first)
				first = records[i];
			n++;
		}
	if (count)
		*count = n;
	return first;
}

/* One ioctl of a group: case c in domain d. */
struct probe {
	enum domain d;
	const struct test_case *c;
	int want_record;
	pid_t pid;
	int err;
};

struct outcome {
	int err;		/* errno of the ioctl, 0 on success */
	int denied;		/* EACCES with an AVC denial record */
	int logged;		/* an AVC record for this ioctl (any result) */
	int permissive;		/* the record says permissive=1 */
	char perm[32], tclass[32];
	/* what the record says the ioctl semantics check decided */
	char cls[16], handler[64], lookup[16], mode[16];
};

static struct probe probe_of(enum domain d, const struct test_case *c, int want_record)
{
	struct probe p = { .d = d, .c = c, .want_record = want_record };

	return p;
}

static void probes_run(struct probe *p, int n)
{
	for (int i = 0; i < n; i++)
		p[i].err = run_in_domain(p[i].d, p[i].c, &p[i].pid);
}

/* Reads the group's records: GROUP_WAIT_MS, and on while an expected record is missing. */
static void probes_wait(const struct probe *p, int n)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	for (int waited = 0; waited <= DENIAL_WAIT_MS; waited += 10) {
		int missing = 0;

		records_read();
		for (int i = 0; i < n && !missing; i++)
			missing = (p[i].want_record || p[i].err == EACCES) &&
				  !record_of(p[i].pid, p[i].c->value, NULL);
		if (waited >= GROUP_WAIT_MS && !missing)
			return;
		nanosleep(&ts, NULL);
	}
}

static struct outcome probe_outcome(const struct probe *p)
{
	struct outcome o;
	const char *rec;

	memset(&o, 0, sizeof(o));
	o.err = p->err;
	rec = record_of(p->pid, p->c->value, NULL);
	if (rec) {
		o.logged = 1;
		o.permissive = strstr(rec, "permissive=1") != NULL;
		avc_perm(rec, o.perm, sizeof(o.perm));
		record_field(rec, "tclass", o.tclass, sizeof(o.tclass));
		o.denied = o.err == EACCES && !o.permissive;
		record_field(rec, "ioctl_class", o.cls, sizeof(o.cls));
		record_field(rec, "ioctl_handler", o.handler, sizeof(o.handler));
		record_field(rec, "ioctl_lookup", o.lookup, sizeof(o.lookup));
		record_field(rec, "ioctl_mode", o.mode, sizeof(o.mode));
	}
	return o;
}

/* Prints one record as the kernel logged it, for the log of the check. */
static void show_record(const struct probe *p)
{
	const char *rec = record_of(p->pid, p->c->value, NULL), *text;

	if (!rec)
		return;
	text = strchr(rec, ';');	/* after the kmsg prefix */
	printf("record: %s", text ? text + 1 : rec);
	if (rec[strlen(rec) - 1] != '\n')
		printf("\n");
}

/* Runs a group and waits for its records once. */
static void probes_group(struct probe *p, int n)
{
	records_begin();
	probes_run(p, n);
	probes_wait(p, n);
}

/* The record names the class the case expects, its handler, the lookup
 * that found it (for cases that say one) and the mode. */
static int record_names(const struct outcome *o, const struct test_case *c, const char *mode)
{
	return !strcmp(o->cls, cls_names[c->cls]) && !strcmp(o->handler, c->handler) &&
	       (!c->lookup[0] || !strcmp(c->lookup, "-") || !strcmp(o->lookup, c->lookup)) &&
	       !strcmp(o->mode, mode);
}

static const char *expected_denial(enum cls cls, enum domain d, const char *cap)
{
	if (cls == CLS_MODIFY && d == RO)
		return "write";
	if (cls == CLS_ADMIN && d == RO)
		return "write";
	if (cls == CLS_ADMIN && d == RW)
		return cap;
	return NULL;
}

static void describe(char *out, size_t size, const struct outcome *o)
{
	if (o->err == EXIT_NOOPEN)
		snprintf(out, size, "device did not open");
	else if (o->denied)
		snprintf(out, size, "denied { %s } ioctl_class=%s ioctl_handler=%s ioctl_lookup=%s"
			 " ioctl_mode=%s", o->perm, o->cls, o->handler, o->lookup, o->mode);
	else if (o->logged)
		snprintf(out, size, "passed SELinux (rc %s, logged { %s }%s ioctl_class=%s"
			 " ioctl_handler=%s ioctl_lookup=%s ioctl_mode=%s)",
			 o->err ? strerror(o->err) : "0", o->perm,
			 o->permissive ? " permissive=1" : "", o->cls, o->handler, o->lookup,
			 o->mode);
	else
		snprintf(out, size, "passed SELinux (rc %s)", o->err ? strerror(o->err) : "0");
}


static struct counters read_counters(void)
{
	struct counters k = { 0 };
	char line[128], name[64];
	long v;
	FILE *fp = fopen(SEMANTICS, "r");

	if (!fp)
		return k;
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "%63s %ld", name, &v) == 2) {
			if (!strcmp(name, "lookups"))
				k.lookups = v;
			else if (!strcmp(name, "denied"))
				k.denied = v;
			else if (!strcmp(name, "audited"))
				k.audited = v;
			else if (!strcmp(name, "resolved_in_modules"))
				k.resolved_in_modules = v;
			else if (!strcmp(name, "hits_device"))
				k.hits_device = v;
			else if (!strcmp(name, "hits_fallback"))
				k.hits_fallback = v;
			else if (!strcmp(name, "hits_socket"))
				k.hits_socket = v;
			else if (!strcmp(name, "hits_drm"))
				k.hits_drm = v;
		}
	fclose(fp);
	return k;
}

static void check_counters(const char *phase, struct counters before, long ioctls,
			   long denials, long audits)
{
	struct counters after = read_counters();
	long lk = after.lookups - before.lookups, dn = after.denied - before.denied;
	long au = after.audited - before.audited;

	/* the kernel reports lookups as the sum of its path counters: the
	 * check is that they add up to the ioctls this program made */
	result(lk == ioctls && dn == denials && au == audits,
	       "counters %s: lookups +%ld (expected %ld), denied +%ld (expected %ld),"
	       " audited +%ld (expected %ld)", phase, lk, ioctls, dn, denials, au, audits);
}

/* A second-level lookup's counter (hits_LOOKUP) rose by at least one for
 * each of the cases cs the lookup serves, in each domain. */
static void check_lookup_hits(const struct test_case *cs, int nc, const char *lookup,
			      const char *what, long hits)
{
	int n = 0;

	for (int i = 0; i < nc; i++)
		n += !strcmp(cs[i].lookup, lookup);
	if (n)
		result(hits >= (long)n * NR_DOMAINS, "hits_%s +%ld for %d %s cases in %d domains",
		       lookup, hits, n, what, NR_DOMAINS);
}

static int lesson_2008(const struct test_case *c)
{
	return (c->cls == CLS_MODIFY || c->cls == CLS_ADMIN) &&
	       (!strcmp(c->dir, "none") || !strcmp(c->dir, "read"));
}

static struct probe probes[MAX_CASES * NR_DOMAINS];

/*
 * Every case of cs in every domain, in the mode the caller set. A denial
 * must name the permission, and its record the class the case expects,
 * the handler that serves the command and the enforce mode; a pass must
 * leave no record. Returns the ioctls made and, in *denials, how many
 * were denied.
 */
static long enforce_cases(const char *phase, const struct test_case *cs, int nc, long *denials)
{
	long ioctls = 0;
	int n = 0;

	*denials = 0;
	for (int i = 0; i < nc; i++)
		for (int d = 0; d < NR_DOMAINS; d++)
			probes[n++] = probe_of((enum domain)d, &cs[i],
				expected_denial(cs[i].cls, (enum domain)d, cs[i].cap) != NULL);
	probes_group(probes, n);
	for (int i = 0, shown = 0; i < n; i++) {
		const struct test_case *c = probes[i].c;
		enum domain d = probes[i].d;
		const char *want = expected_denial(c->cls, d, c->cap);
		struct outcome o = probe_outcome(&probes[i]);
		char got[256];
		int ok, denied_as_expected;

		describe(got, sizeof(got), &o);
		if (o.err == EXIT_NOOPEN) {
			result(0, "%s %s %s %s (%s): %s", phase, domain_names[d], c->dev, c->name,
			       cls_names[c->cls], got);
			continue;
		}
		ioctls++;
		*denials += o.denied;
		/* one record of each class, and each socket case's, as examples */
		if (o.denied && (!(shown & 1 << c->cls) || (is_socket(c->dev) && d == RO))) {
			show_record(&probes[i]);
			shown |= 1 << c->cls;
		}
		denied_as_expected = want && o.denied && !strcmp(o.perm, want);
		ok = want ? denied_as_expected && record_names(&o, c, "enforce") : !o.logged;
		result(ok, "%s %s %s %s 0x%lx (%s, %s): %s; expected %s%s%s", phase, domain_names[d],
		       c->dev, c->name, c->value, cls_names[c->cls], c->handler, got,
		       want ? "denied { " : "to pass SELinux with no record", want ? want : "",
		       want ? " } naming the class and handler, ioctl_mode=enforce" : "");
		if (d == RO && !c->compat && lesson_2008(c))
			result(denied_as_expected, "2008 lesson: %s has direction bits '%s' but is %s:"
			       " %s for ro, which the direction-bit rule would have allowed",
			       c->name, c->dir, cls_names[c->cls], o.denied ? "denied" : "NOT denied");
	}
	return ioctls;
}

static void phase_enforce(void)
{
	struct counters before = read_counters(), after;
	long denials, ioctls;

	set_mode("enforce");
	ioctls = enforce_cases("enforce", cases, nr_cases, &denials);
	if (!semantics_present)
		return;
	after = read_counters();
	check_counters("enforce", before, ioctls, denials, 0);
	check_lookup_hits(cases, nr_cases, "socket", "socket",
			  after.hits_socket - before.hits_socket);
	check_lookup_hits(cases, nr_cases, "drm", "DRM driver", after.hits_drm - before.hits_drm);
}

/*
 * The compat cases, 32-bit calls in every domain under enforce: the
 * compat hook looks in the syscall's compat commands first, then in the
 * handlers installed for compat calls (compat_ptr_ioctl's unlocked one).
 */
static void phase_compat(void)
{
	struct counters before = read_counters(), after;
	long denials, ioctls;

	if (!nr_compat)
		return;
	set_mode("enforce");
	ioctls = enforce_cases("compat", compat_cases, nr_compat, &denials);
	after = read_counters();
	check_counters("compat", before, ioctls, denials, 0);
	check_lookup_hits(compat_cases, nr_compat, "device", "disk",
			  after.hits_device - before.hits_device);
	check_lookup_hits(compat_cases, nr_compat, "drm", "DRM driver",
			  after.hits_drm - before.hits_drm);
}

/*
 * What a userns case must show in domain d (rw_t or userns_t): the
 * capability permission denied and its class, or NULL to pass SELinux
 * with no record. The cases' capabilities are below 32 (capability, not
 * capability2).
 */
static const char *userns_denial(const struct test_case *c, enum domain d,
				 const char **tclass)
{
	*tclass = "";
	if (!semantics_present || c->cls != CLS_ADMIN)
		return NULL;
	if (!strcmp(c->ns, "user_ns")) {
		*tclass = "cap_userns";
		return d == USERNS_ADMIN ? NULL : c->cap;
	}
	*tclass = "capability";
	return c->cap;
}

/*
 * The userns cases, each as rw_t and userns_t from a new user namespace,
 * under enforce: a capability the driver checks with ns_capable() is asked
 * in cap_userns, one it checks with capable() in capability, as SELinux
 * asks the driver's own check. Asking capability for the first denies
 * userns_t what its policy grants; asking cap_userns for the second lets
 * it through to the driver.
 */
static void phase_userns(void)
{
	static const enum domain ds[] = { RW, USERNS_ADMIN };
	struct counters before = read_counters();
	long ioctls = 0, denials = 0;
	const char *tclass;
	int n = 0;

	if (!nr_userns)
		return;
	set_mode("enforce");
	for (int i = 0; i < nr_userns; i++)
		for (size_t d = 0; d < sizeof(ds) / sizeof(ds[0]); d++)
			probes[n++] = probe_of(ds[d], &userns_cases[i],
					       userns_denial(&userns_cases[i], ds[d], &tclass) != NULL);
	probes_group(probes, n);
	for (int i = 0; i < n; i++) {
		const struct test_case *c = probes[i].c;
		enum domain d = probes[i].d;
		const char *want = userns_denial(c, d, &tclass);
		struct outcome o = probe_outcome(&probes[i]);
		char got[256];
		int ok;

		describe(got, sizeof(got), &o);
		if (o.err == EXIT_NOOPEN || o.err == EXIT_NOUNSHARE) {
			result(0, "userns %s %s %s: %s", domain_names[d], c->dev, c->name,
			       o.err == EXIT_NOOPEN ? "device did not open" :
			       "unshare(CLONE_NEWUSER) failed");
			continue;
		}
		ioctls++;
		denials += o.denied;
		if (o.denied)
			show_record(&probes[i]);
		ok = want ? o.denied && !strcmp(o.perm, want) && !strcmp(o.tclass, tclass) &&
			    record_names(&o, c, "enforce") :
			    !o.logged && o.err != EACCES;
		result(ok, "userns %s %s %s 0x%lx (%s %s %s): %s tclass=%s; expected %s%s%s%s%s",
		       domain_names[d], c->dev, c->name, c->value, cls_names[c->cls], c->cap, c->ns,
		       got, o.tclass[0] ? o.tclass : "-",
		       want ? "denied { " : "to pass SELinux with no record", want ? want : "",
		       want ? " } in " : "", want ? tclass : "",
		       want ? " naming the class and handler" : "");
	}
	if (semantics_present)
		check_counters("userns", before, ioctls, denials, 0);
}

/*
 * A child in a test domain that holds a device open and issues the command
 * it is sent, one at a time, so that the parent can change the policy
 * state between two ioctls on the same open file.
 */
struct holder {
	pid_t pid;
	int to, from;
};

static int holder_start(struct holder *h, enum domain d, const char *dev, int flags)
{
	int to[2], from[2];

	if (pipe(to) || pipe(from))
		return -1;
	h->pid = fork();
	if (h->pid < 0)
		return -1;
	if (h->pid == 0) {
		unsigned long cmd;
		int fd, err;

		close(to[1]);
		close(from[0]);
		if (write_file("/proc/self/attr/current", domain_contexts[d]))
			_exit(1);
		fd = open(dev, flags | O_NONBLOCK);
		err = fd < 0 ? EXIT_NOOPEN : 0;
		if (write(from[1], &err, sizeof(err)) != sizeof(err) || fd < 0)
			_exit(1);
		while (read(to[0], &cmd, sizeof(cmd)) == sizeof(cmd)) {
			alarm(10);
			err = ioctl(fd, cmd, argbuf) < 0 ? errno : 0;
			if (write(from[1], &err, sizeof(err)) != sizeof(err))
				_exit(1);
		}
		_exit(0);
	}
	close(to[0]);
	close(from[1]);
	h->to = to[1];
	h->from = from[0];
	return 0;
}

/* errno of the holder's ioctl (0 on success, EXIT_NOOPEN for its open) */
static int holder_result(struct holder *h)
{
	int err;

	return read(h->from, &err, sizeof(err)) == sizeof(err) ? err : -1;
}

static int holder_ioctl(struct holder *h, unsigned long cmd)
{
	if (write(h->to, &cmd, sizeof(cmd)) != sizeof(cmd))
		return -1;
	return holder_result(h);
}

static void holder_stop(struct holder *h)
{
	close(h->to);
	close(h->from);
	waitpid(h->pid, NULL, 0);
}

/* pid's ioctl cmd failed with err and was denied { perm } by an enforcing AVC record. */
static int avc_denied_perm(pid_t pid, int err, unsigned long cmd, const char *perm)
{
	char rec[8192], got[32];

	if (err != EACCES || !kmsg_find_avc(pid, cmd, 2000, rec, sizeof(rec)))
		return 0;
	avc_perm(rec, got, sizeof(got));
	return !strcmp(got, perm) && !strstr(rec, "permissive=1");
}

static int permissive(const char *dev)
{
	(void)dev;
	return write_file("/sys/fs/selinux/enforce", "0");
}

static int enforcing(const char *dev)
{
	(void)dev;
	return write_file("/sys/fs/selinux/enforce", "1");
}

static int label_other(const char *dev)
{
	return set_label(dev, "other_t");
}

static int label_test(const char *dev)
{
	return set_label(dev, "test_dev_t");
}

/*
 * ro_t opens the device once grant() has made the modify command c pass
 * for it, runs c twice so that the grant is kept, and runs it again after
 * end() has taken the permission away: it must be denied { write }.
 */
static void kept_until(const struct test_case *c, const char *how, int (*grant)(const char *),
		       int (*end)(const char *))
{
	struct holder h;
	int e1, e2, e3;

	if (grant(c->dev) || holder_start(&h, RO, c->dev, O_RDONLY) || holder_result(&h)) {
		result(0, "kept: %s: cannot set up or open %s as ro", how, c->dev);
		end(c->dev);
		return;
	}
	e1 = holder_ioctl(&h, c->value);
	e2 = holder_ioctl(&h, c->value);
	if (end(c->dev))
		die(how);
	kmsg_skip();
	e3 = holder_ioctl(&h, c->value);
	result(e1 != EACCES && e2 != EACCES && avc_denied_perm(h.pid, e3, c->value, "write"),
	       "kept: ro %s %s (modify) on one open file, %s: %s, %s, then %s; expected to pass"
	       " twice, then denied { write }", c->dev, c->name, how, strerror(e1), strerror(e2),
	       strerror(e3));
	holder_stop(&h);
}

/* The opener (init_t) runs c twice; ro_t on that descriptor is denied. */
static void kept_for_opener_only(const struct test_case *c)
{
	int fd = open(c->dev, O_RDWR | O_NONBLOCK), e1, e2, e3 = -1;
	pid_t pid;

	if (fd < 0) {
		result(0, "kept: open %s: %s", c->dev, strerror(errno));
		return;
	}
	e1 = ioctl(fd, c->value, argbuf) < 0 ? errno : 0;
	e2 = ioctl(fd, c->value, argbuf) < 0 ? errno : 0;
	kmsg_skip();
	pid = fork();
	if (pid == 0) {
		if (write_file("/proc/self/attr/current", domain_contexts[RO]))
			_exit(1);
		_exit(ioctl(fd, c->value, argbuf) < 0 ? (errno & 0xff) : 0);
	}
	if (pid > 0 && waitpid(pid, &e3, 0) == pid && WIFEXITED(e3))
		e3 = WEXITSTATUS(e3);
	close(fd);
	result(e1 != EACCES && e2 != EACCES && avc_denied_perm(pid, e3, c->value, "write"),
	       "kept: %s %s (modify) twice by the opener (init_t): %s, %s; then by ro_t on"
	       " that descriptor %s; expected denied { write }", c->dev, c->name,
	       strerror(e1), strerror(e2), strerror(e3));
}

/*
 * The opener's file:read or file:write is kept with the open file after
 * the AVC granted it once (kernel-glue patch 5).  What is kept must never
 * outlive what the AVC would answer: a grant that permissive mode made ends
 * at setenforce 1, a grant on the inode's old label ends when it is
 * relabelled, and another domain on the opener's descriptor asks the AVC.
 */
static void phase_kept(void)
{
	const struct test_case *c = NULL;

	for (int i = 0; i < nr_cases && !c; i++)
		if (cases[i].cls == CLS_MODIFY)
			c = &cases[i];
	if (!c) {
		result(0, "kept: no modify case to check with");
		return;
	}
	set_mode("enforce");
	kept_until(c, "permissive, then setenforce 1", permissive, enforcing);
	kept_until(c, "labelled other_t, then relabelled test_dev_t", label_other, label_test);
	kept_for_opener_only(c);
}

/*
 * Audit mode: modify commands pass for ro_t, each with a { write } record
 * that says ioctl_mode=audit (and permissive=1: not enforced), with the
 * class and handler. The first record since the last AVC reset for that
 * domain, label and command: the ones that follow are in phase_audit_once.
 */
static void phase_audit(void)
{
	struct counters before, after_off;
	long ioctls = 0, audits = 0;
	int n = 0, driver_eacces[MAX_CASES] = { 0 };

	/*
	 * A driver may itself fail a read-only descriptor with EACCES (PTP's
	 * FMODE_WRITE checks): for such a command EACCES cannot tell that
	 * SELinux let the call through, and only the permissive=1 record
	 * says so. Found with the check off, on the opener's descriptor.
	 */
	before = read_counters();
	if (!set_mode("off")) {
		for (int i = 0; i < nr_cases; i++) {
			int fd;

			if (cases[i].cls != CLS_MODIFY || is_socket(cases[i].dev))
				continue;
			fd = open(cases[i].dev, O_RDONLY | O_NONBLOCK);
			if (fd < 0)
				continue;
			driver_eacces[i] = ioctl(fd, cases[i].value, argbuf) < 0 && errno == EACCES;
			close(fd);
		}
	}
	after_off = read_counters();
	result(after_off.lookups == before.lookups && after_off.denied == before.denied,
	       "audit: the drivers' own answers to a read-only descriptor, with the check off:"
	       " lookups +%ld, denied +%ld (expected 0)", after_off.lookups - before.lookups,
	       after_off.denied - before.denied);
	before = after_off;
	if (set_mode("audit")) {
		result(0, "audit mode: cannot switch: %s", strerror(errno));
		return;
	}
	int eacces_ok[MAX_CASES];

	for (int i = 0; i < nr_cases; i++)
		if (cases[i].cls == CLS_MODIFY) {
			eacces_ok[n] = driver_eacces[i];
			probes[n++] = probe_of(RO, &cases[i], 1);
		}
	probes_group(probes, n);
	for (int i = 0; i < n; i++) {
		const struct test_case *c = probes[i].c;
		struct outcome o = probe_outcome(&probes[i]);
		char got[256];

		describe(got, sizeof(got), &o);
		if (i == 0)
			show_record(&probes[i]);
		ioctls++;
		audits += o.logged && o.permissive;
		result(!o.denied && (o.err != EACCES || eacces_ok[i]) && o.logged && o.permissive &&
		       !strcmp(o.perm, "write") && record_names(&o, c, "audit"),
		       "audit ro %s %s (modify, %s): %s; expected to pass with a permissive=1 { write }"
		       " record naming the class and handler, ioctl_mode=audit%s", c->dev, c->name,
		       c->handler, got, eacces_ok[i] ? " (the driver itself fails a read-only"
		       " descriptor with EACCES)" : "");
	}
	check_counters("audit", before, ioctls, 0, audits);
}

#define POLL_CALLS 1000

/*
 * A program polling with a command that audit mode lets through: POLL_CALLS
 * ioctls on one open file, in one process. Returns how many did not fail
 * with EACCES, and the process's pid.
 */
static int poll_in_domain(enum domain d, const struct test_case *c, pid_t *child)
{
	int p[2], passed = -1, status;
	pid_t pid;

	if (pipe(p))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		int fd, ok = 0;

		close(p[0]);
		if (write_file("/proc/self/attr/current", domain_contexts[d]))
			_exit(1);
		fd = open(c->dev, (d == RO ? O_RDONLY : O_RDWR) | O_NONBLOCK);
		if (fd >= 0)
			for (int i = 0; i < POLL_CALLS; i++) {
				alarm(10);
				ok += ioctl(fd, c->value, argbuf) == 0 || errno != EACCES;
			}
		if (write(p[1], &ok, sizeof(ok)) != sizeof(ok))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], &passed, sizeof(passed)) != sizeof(passed))
		passed = -1;
	close(p[0]);
	waitpid(pid, &status, 0);
	*child = pid;
	return passed;
}

/*
 * Audit mode logs a denial once per AVC reset for its domain, label,
 * permission, command and handler: a polling loop leaves no record after
 * phase_audit's, and one after the policy is loaded again (an AVC reset).
 * Every call is still counted (audited).
 */
static void phase_audit_once(void)
{
	const struct test_case *c = NULL;
	struct counters before;
	int records, ok;
	pid_t pid;

	for (int i = 0; i < nr_cases && !c; i++)
		if (cases[i].cls == CLS_MODIFY)
			c = &cases[i];
	if (!c || set_mode("audit")) {
		result(0, "audit once: no modify case, or cannot switch to audit mode");
		return;
	}
	for (int reset = 0; reset < 2; reset++) {
		if (reset)
			load_policy("/policy.bin");
		before = read_counters();
		records_begin();
		ok = poll_in_domain(RO, c, &pid);
		{
			struct probe p = probe_of(RO, c, reset);

			p.pid = pid;

			probes_wait(&p, 1);
		}
		record_of(pid, c->value, &records);
		result(ok == POLL_CALLS && records == reset,
		       "audit once: ro %s %s (modify) %d times in one process %s: %d passed,"
		       " %d records (expected %d)", c->dev, c->name, POLL_CALLS,
		       reset ? "after the policy is loaded again" : "after phase audit logged it",
		       ok, records, reset);
		check_counters(reset ? "audit once, after a policy load" : "audit once", before,
			       POLL_CALLS, 0, POLL_CALLS);
	}
}

/*
 * A file with no ioctl handler (/dev/null): the ioctl fails with ENOTTY as
 * without the table, with no record, even for a value the fallback
 * entries hold as modify (a loop command's).
 */
static void phase_no_handler(void)
{
	const struct test_case *m = NULL;
	struct test_case c;
	struct outcome o;
	char got[256];

	for (int i = 0; i < nr_cases && !m; i++)
		if (cases[i].cls == CLS_MODIFY && !strncmp(cases[i].dev, "/dev/loop", 9))
			m = &cases[i];
	if (!m || set_label("/dev/null", "test_dev_t")) {
		result(0, "no handler: no loop modify case, or /dev/null not labelled");
		return;
	}
	c = *m;
	snprintf(c.dev, sizeof(c.dev), "/dev/null");
	set_mode("enforce");
	{
		struct probe p = probe_of(RO, &c, 0);

		probes_group(&p, 1);
		o = probe_outcome(&p);
	}
	describe(got, sizeof(got), &o);
	result(o.err == ENOTTY && !o.logged, "no handler: ro /dev/null %s 0x%lx (modify for loop):"
	       " %s; expected ENOTTY and no record, as without the table", c.name, c.value, got);
}

/*
 * The loop module unloaded and loaded again: its handlers must be dropped
 * when it goes and found again when it comes (the addresses can change),
 * and its commands looked up through the disk's handler, not the fallback.
 */
static void phase_module(void)
{
	struct counters before = read_counters(), gone, back, after;
	long ioctls = 0, denials = 0;
	int rc, n = 0;

	if (access(LOOP_MODULE, F_OK))
		return;
	result(loop_resolved > 0, "module: loop loaded at boot: %ld handlers resolved in its"
	       " symbols (%ld in all modules)", loop_resolved, before.resolved_in_modules);
	rc = (int)syscall(SYS_delete_module, "loop", O_NONBLOCK);
	gone = read_counters();
	result(rc == 0 && gone.resolved_in_modules == before.resolved_in_modules - loop_resolved,
	       "module: loop unloaded (%s): %ld handlers left resolved in modules (expected %ld:"
	       " the other modules')", rc ? strerror(errno) : "ok", gone.resolved_in_modules,
	       before.resolved_in_modules - loop_resolved);
	rc = load_module(LOOP_MODULE);
	back = read_counters();
	result(rc == 0 && back.resolved_in_modules == before.resolved_in_modules,
	       "module: loop loaded again (%s): %ld handlers resolved in modules (expected %ld)",
	       rc ? strerror(errno) : "ok", back.resolved_in_modules, before.resolved_in_modules);
	label_test_devices(0);
	set_mode("enforce");
	for (int i = 0; i < nr_cases; i++)
		if (!strncmp(cases[i].dev, "/dev/loop", 9))
			probes[n++] = probe_of(RO, &cases[i],
				expected_denial(cases[i].cls, RO, cases[i].cap) != NULL);
	probes_group(probes, n);
	for (int i = 0; i < n; i++) {
		const struct test_case *c = probes[i].c;
		const char *want = expected_denial(c->cls, RO, c->cap);
		struct outcome o = probe_outcome(&probes[i]);
		char got[256];

		describe(got, sizeof(got), &o);
		ioctls++;
		denials += o.denied;
		result(want ? o.denied && !strcmp(o.perm, want) && record_names(&o, c, "enforce") :
			      !o.logged && o.err != EXIT_NOOPEN,
		       "module reloaded: ro %s %s (%s, %s): %s; expected %s%s%s", c->dev, c->name,
		       cls_names[c->cls], c->handler, got, want ? "denied { " : "to pass SELinux",
		       want ? want : "", want ? " }" : "");
	}
	after = read_counters();
	result(ioctls > 0 && after.hits_fallback == back.hits_fallback &&
	       after.hits_device > back.hits_device,
	       "module reloaded: %ld loop ioctls, fallback hits +%ld (expected 0), disk handler"
	       " hits +%ld", ioctls, after.hits_fallback - back.hits_fallback,
	       after.hits_device - back.hits_device);
	check_counters("module reloaded", back, ioctls, denials, 0);
}

/*
 * A policy that does not declare ioctl_semantics keeps its meaning: in
 * enforce mode no case is denied or logged in any domain, and the hook
 * does not even look the command up.
 */
static void phase_without_capability(void)
{
	struct counters before = read_counters();

	int n = 0;

	set_mode("enforce");
	for (int i = 0; i < nr_cases; i++)
		for (int d = 0; d < NR_DOMAINS; d++)
			probes[n++] = probe_of((enum domain)d, &cases[i], 0);
	probes_group(probes, n);
	for (int i = 0; i < n; i++) {
		const struct test_case *c = probes[i].c;
		struct outcome o = probe_outcome(&probes[i]);
		char got[256];

		describe(got, sizeof(got), &o);
		result(!o.logged && o.err != EXIT_NOOPEN, "policy without ioctl_semantics:"
		       " %s %s %s (%s): %s; expected no SELinux denial or record",
		       domain_names[probes[i].d], c->dev, c->name, cls_names[c->cls], got);
	}
	check_counters("policy without ioctl_semantics", before, 0, 0, 0);
}

static void phase_off(const char *label)
{
	struct counters before = read_counters();

	int n = 0;

	if (semantics_present && set_mode("off")) {
		result(0, "off mode: cannot switch: %s", strerror(errno));
		return;
	}
	for (int i = 0; i < nr_cases; i++)
		probes[n++] = probe_of(RO, &cases[i], 0);
	probes_group(probes, n);
	for (int i = 0; i < n; i++) {
		const struct test_case *c = probes[i].c;
		struct outcome o = probe_outcome(&probes[i]);
		char got[256];

		describe(got, sizeof(got), &o);
		result(!o.logged && o.err != EXIT_NOOPEN, "%s ro %s %s (%s): %s; expected no SELinux"
		       " denial or record, as without the patch", label, c->dev, c->name,
		       cls_names[c->cls], got);
	}
	if (semantics_present)
		check_counters("off", before, 0, 0, 0);
}

static uint32_t rnd_state = 0x2545f491;

static uint32_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state;
}

/* Random values, every direction with size 0 and the maximum, and values
 * next to each table entry (nr and size one off). */
static int storm_values(uint32_t *v, int max)
{
	int n = 0;

	for (int i = 0; i < 400 && n < max; i++)
		v[n++] = rnd();
	for (uint32_t dir = 0; dir < 4; dir++)
		for (uint32_t size = 0; size <= 0x3fff; size += 0x3fff)
			for (int i = 0; i < 8 && n < max; i++)
				v[n++] = dir << 30 | size << 16 | (rnd() & 0xffff);
	for (int i = 0; i < nr_cases && n + 6 <= max; i++) {
		uint32_t c = (uint32_t)cases[i].value;

		v[n++] = c + 1;
		v[n++] = c - 1;
		v[n++] = c ^ (1u << 16);
		v[n++] = c & ~(0x3fffu << 16);
		v[n++] = c | (0x3fffu << 16);
		v[n++] = c ^ 0xc0000000u;
	}
	return n;
}

static void phase_storm(void)
{
	static uint32_t v[1024];
	int n = storm_values(v, 1024), ok = 1, issued = 0;

	set_mode("enforce");
	for (int d = 0; d < NR_DOMAINS; d++) {
		int p[2], status, count = 0;
		pid_t pid;

		if (pipe(p))
			die("pipe");
		pid = fork();
		if (pid == 0) {
			close(p[0]);
			write_file("/proc/self/attr/current", domain_contexts[d]);
			for (int s = 0; s < nr_storm; s++) {
				int fd = open(storm_devs[s], (d == RO ? O_RDONLY : O_RDWR) | O_NONBLOCK);

				if (fd < 0)
					continue;
				for (int i = 0; i < n; i++) {
					memset(argbuf, 0, sizeof(argbuf));
					alarm(5);
					ioctl(fd, v[i], argbuf);
					count++;
				}
				close(fd);
			}
			if (write(p[1], &count, sizeof(count)) != sizeof(count))
				_exit(1);
			_exit(0);
		}
		close(p[1]);
		if (read(p[0], &count, sizeof(count)) != sizeof(count))
			count = 0;
		close(p[0]);
		waitpid(pid, &status, 0);
		issued += count;
		if (!WIFEXITED(status))
			ok = 0;
	}
	result(ok && issued > 0, "storm: %d ioctls with random and edge values on %d devices from %d"
	       " domains, kernel still up", issued, nr_storm, NR_DOMAINS);
}

/*
 * The guest's clock can be coarse: without a calibrated TSC the kernel
 * falls back to jiffies, 4 ms, 6% of a loop of 10^5 calls. The loops are
 * timed in TSC ticks (the emulator derives them from the host's clock);
 * the bench converts ticks to ns against CLOCK_MONOTONIC over its whole run.
 */
static double now_ticks(void)
{
#if defined(__x86_64__)
	unsigned int lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (double)((unsigned long)hi << 32 | lo);
#else
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
#endif
}

/* The first line of a file, without its newline; 0 on success. */
static int read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	int rc = -1;

	if (!f)
		return -1;
	if (fgets(buf, size, f)) {
		buf[strcspn(buf, "\n")] = 0;
		rc = 0;
	}
	fclose(f);
	return rc;
}

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

/* ticks per call */
static double time_loop(int fd, unsigned long cmd, long n)
{
	double a = now_ticks();

	for (long i = 0; i < n; i++)
		ioctl(fd, cmd, argbuf);
	return (now_ticks() - a) / n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#define BENCH_ROUNDS 11
#define BENCH_CALLS 100000L

/* One timed loop, here or (to[1] >= 0) by the child at the pipes' end. */
static double bench_loop(int fd, const int to[2], const int from[2])
{
	double t = 0;

	if (to[1] < 0)
		return time_loop(fd, bench.value, BENCH_CALLS);
	if (write(to[1], "g", 1) != 1 || read(from[0], &t, sizeof(t)) != sizeof(t))
		return 0;
	return t;
}

/*
 * Times the loop with the mode off and enforce, interleaved round by round
 * (in alternating order, so that a drift of the emulator's speed during the
 * run falls on both equally) after one warm-up loop. Each round's ratio
 * compares two adjacent loops; the median of the rounds is the figure, the
 * smallest and largest show the noise.
 */
static void bench_rounds(int fd, const char *what, const int to[2], const int from[2])
{
	double off[BENCH_ROUNDS], enf[BENCH_ROUNDS], ratio[BENCH_ROUNDS];
	double t0 = now_ticks(), ns0 = now_ns(), ns_per_tick;

	bench_loop(fd, to, from);
	for (int r = 0; r < BENCH_ROUNDS; r++) {
		if (r % 2 == 0) {
			set_mode("off");
			off[r] = bench_loop(fd, to, from);
			set_mode("enforce");
			enf[r] = bench_loop(fd, to, from);
		} else {
			set_mode("enforce");
			enf[r] = bench_loop(fd, to, from);
			set_mode("off");
			off[r] = bench_loop(fd, to, from);
		}
		if (off[r] <= 0 || enf[r] <= 0) {
			printf("bench: %s: a timed loop did not complete\n", what);
			return;
		}
		ratio[r] = enf[r] / off[r];
	}
	set_mode("enforce");
	ns_per_tick = (now_ns() - ns0) / (now_ticks() - t0);
	qsort(off, BENCH_ROUNDS, sizeof(double), cmp_double);
	qsort(enf, BENCH_ROUNDS, sizeof(double), cmp_double);
	qsort(ratio, BENCH_ROUNDS, sizeof(double), cmp_double);
	printf("bench: %s on %s, %s, %d rounds of %ld calls, off and enforce"
	       " interleaved: median off %.0f ns/call, enforce %.0f ns/call, ratio %.3f"
	       " (rounds %.3f-%.3f) (target < 1.05)\n", bench.name, bench.dev, what,
	       BENCH_ROUNDS, BENCH_CALLS, off[BENCH_ROUNDS / 2] * ns_per_tick,
	       enf[BENCH_ROUNDS / 2] * ns_per_tick,
	       ratio[BENCH_ROUNDS / 2], ratio[0], ratio[BENCH_ROUNDS - 1]);
}

/*
 * The cost of the lookup: the loop by the domain that opened the device,
 * the common case, and by another domain on the same descriptor.  The hook
 * checks the permission the command needs in the AVC on every call for
 * both (it does not reuse the open's check), so the two should cost the
 * same.
 */
static void phase_bench(void)
{
	const int here[2] = { -1, -1 };
	int fd, to[2], from[2], status;
	char line[64];
	pid_t pid;

	if (!have_bench || !semantics_present)
		return;
	fd = open(bench.dev, O_RDONLY);
	if (fd < 0 || pipe(to) || pipe(from)) {
		result(0, "bench: open %s: %s", bench.dev, strerror(errno));
		return;
	}
	if (read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		      line, sizeof(line)) == 0)
		printf("bench: guest clocksource %s; loops timed with the TSC\n", line);
	bench_rounds(fd, "by the opener", here, here);
	fflush(stdout);
	/* the child cannot switch the mode (security:setenforce): it loops
	 * when told to and reports the time */
	pid = fork();
	if (pid == 0) {
		char c;

		close(to[1]);
		close(from[0]);
		if (write_file("/proc/self/attr/current", domain_contexts[RO]))
			_exit(1);
		while (read(to[0], &c, 1) == 1) {
			double t = time_loop(fd, bench.value, BENCH_CALLS);

			if (write(from[1], &t, sizeof(t)) != sizeof(t))
				_exit(1);
		}
		_exit(0);
	}
	close(to[0]);
	close(from[1]);
	if (pid > 0)
		bench_rounds(fd, "by another domain (ro_t) on that descriptor", to, from);
	close(to[1]);
	close(from[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	close(fd);
}

/* The counters at the end, for the record: which lookup paths served. */
static void print_stats(void)
{
	FILE *fp = fopen(SEMANTICS, "r");
	char line[128];

	while (fp && fgets(line, sizeof(line), fp))
		printf("stats: %s", line);
	if (fp)
		fclose(fp);
}

int main(void)
{
	read_cases();
	setup();
	printf("ioctl_check: %d cases, ioctl semantics %s\n", nr_cases,
	       semantics_present ? "present" : "not built in");
	if (semantics_present)
		phase_without_capability();
	load_policy("/policy.bin");
	if (semantics_present) {
		phase_enforce();
		phase_compat();
		phase_userns();
		phase_kept();
		phase_audit();
		phase_audit_once();
		phase_off("off");
		phase_no_handler();
		phase_module();
		phase_storm();
		phase_bench();
		print_stats();
	} else {
		phase_off("unpatched");
		phase_userns();
	}
	printf("%d passed, %d failed\n", passed, failed);
	fflush(stdout);
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
