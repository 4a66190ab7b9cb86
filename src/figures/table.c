#include "table.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

int table_col_by_name(const struct column *cols, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcasecmp(name, cols[i].name) || !strcasecmp(name, cols[i].title))
			return i;
	return -1;
}

unsigned table_default(const struct column *cols, int n)
{
	unsigned set = 0;

	for (int c = 0; c < n; c++)
		if (cols[c].on)
			set |= TABLE_BIT(c);
	return set;
}

unsigned table_with_need(const struct column *cols, int n, unsigned needs, bool all)
{
	unsigned set = 0;

	for (int c = 0; c < n; c++)
		if (all ? (cols[c].needs & needs) == cols[c].needs : (cols[c].needs & needs) != 0)
			set |= TABLE_BIT(c);
	return set;
}

int table_parse(const struct column *cols, int n, const char *list, unsigned *set, char *err,
		size_t errlen)
{
	char buf[256];
	bool relative = list[0] == '+' || list[0] == '-';
	unsigned s = relative ? table_default(cols, n) : 0;

	if (strlen(list) >= sizeof(buf)) {
		snprintf(err, errlen, "--columns: list too long");
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *save = NULL, *name = strtok_r(buf, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		char op = relative ? '+' : 0;
		if (*name == '+' || *name == '-')
			op = *name++;
		if (op && !relative) {
			snprintf(err, errlen,
				 "--columns: '%c%s': begin the list with + or - to edit the "
				 "defaults",
				 op, name);
			return -1;
		}
		int c = table_col_by_name(cols, n, name);
		if (c < 0) {
			snprintf(err, errlen, "--columns: unknown column '%.40s'", name);
			return -1;
		}
		if (op == '-')
			s &= ~TABLE_BIT(c);
		else
			s |= TABLE_BIT(c);
	}
	if (!s) {
		snprintf(err, errlen, "--columns: no column left");
		return -1;
	}
	*set = s;
	return 0;
}
