/* SELinux AVC records of the ioctl permission, as the kernel logs them
 * (security/lsm_audit.c), dmesg shows them and ausearch prints them, raw
 * or interpreted (-i). */
#ifndef IOCTL_SCAN_AVC_RECORD_H
#define IOCTL_SCAN_AVC_RECORD_H

struct avc_record {
	char *cmd;		/* ioctlcmd as written: 0x5401, 5401, TCGETS */
	/* NULL when the record lacks them; the contexts' types, not the
	 * whole contexts (u:r:untrusted_app:s0 -> untrusted_app) */
	char *tclass, *path, *source_type, *target_type;
};

/* Fills rec and returns 1 when line holds an AVC record that denies (or
 * grants) the ioctl permission and names the command; 0 for any other
 * line, rec untouched. */
int avc_record_parse(const char *line, struct avc_record *rec);
void avc_record_free(struct avc_record *rec);

#endif
