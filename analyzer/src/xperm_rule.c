#include "xperm_rule.h"

char *xperm_number(uint16_t n)
{
	return xasprintf("0x%04x", n);
}

static void print_numbers(FILE *fp, const strvec *nums)
{
	for (size_t k = 0; k < nums->len; k++)
		fprintf(fp, "%s%s", k ? " " : "", nums->items[k]);
}

void xperm_rule_print(FILE *fp, const char *domain, const char *type, const char *cls,
		      const strvec *nums, int cil)
{
	if (cil) {
		fprintf(fp, "(allowx %s %s (ioctl %s (", domain, type, cls);
		print_numbers(fp, nums);
		fputs(")))\n", fp);
		return;
	}
	fprintf(fp, "allowxperm %s %s:%s ioctl ", domain, type, cls);
	if (nums->len == 1) {
		fprintf(fp, "%s;\n", nums->items[0]);
		return;
	}
	fputs("{ ", fp);
	print_numbers(fp, nums);
	fputs(" };\n", fp);
}
