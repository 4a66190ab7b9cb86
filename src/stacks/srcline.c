#include "srcline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

static void put_src(char *out, const char *file, int line)
{
	if (file && line > 0)
		snprintf(out, SRC_LEN, "%s:%d", file, line);
	else
		out[0] = '\0';
}

/* The name of an inlined subroutine: its abstract origin's. */
static const char *inlined_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name = NULL;

	if (dwarf_attr_integrate(die, DW_AT_name, &attr))
		name = dwarf_formstring(&attr);
	return name ? name : "?";
}

/* Where an inlined subroutine was called from: its DW_AT_call_file and call_line. */
static void call_site(Dwarf_Die *die, Dwarf_Files *files, size_t nfiles, char *out)
{
	Dwarf_Attribute attr;
	Dwarf_Word file = 0, line = 0;
	const char *name = NULL;

	out[0] = '\0';
	if (!dwarf_attr(die, DW_AT_call_file, &attr) || dwarf_formudata(&attr, &file) ||
	    !dwarf_attr(die, DW_AT_call_line, &attr) || dwarf_formudata(&attr, &line))
		return;
	if (files && file < nfiles)
		name = dwarf_filesrc(files, file, NULL, NULL);
	put_src(out, name, (int)line);
}

void srcline_find(Dwfl_Module *m, uint64_t look, struct srcline *out)
{
	Dwarf_Addr bias = 0;
	Dwarf_Die *cu, *scopes = NULL;
	Dwarf_Files *files = NULL;
	size_t nfiles = 0;
	Dwfl_Line *line;
	char here[SRC_LEN];
	int lineno = 0, n;

	memset(out, 0, sizeof(*out));
	if (!m || !(cu = dwfl_module_addrdie(m, look, &bias)))
		return;
	line = dwfl_module_getsrc(m, look);
	const char *file = line ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;

	put_src(here, file, lineno);
	if (dwarf_getsrcfiles(cu, &files, &nfiles))
		files = NULL;
	n = dwarf_getscopes(cu, look - bias, &scopes);
	for (int i = 0; i < n; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_subprogram)
			break;
		if (tag != DW_TAG_inlined_subroutine || out->ninl == SRC_INLINE)
			continue;
		snprintf(out->inl_name[out->ninl], SRC_NAME, "%s", inlined_name(&scopes[i]));
		snprintf(out->inl_src[out->ninl++], SRC_LEN, "%s", here);
		call_site(&scopes[i], files, nfiles, here);
	}
	free(scopes);
	snprintf(out->src, SRC_LEN, "%s", here);
}
