#include "proc_dwfl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local int32_t elf_pid;

void proc_dwfl_use(int32_t pid)
{
	elf_pid = pid;
}

static int find_elf(Dwfl_Module *mod, void **userdata, const char *name, Dwarf_Addr base,
		    char **file_name, Elf **elfp)
{
	char path[4200];
	int fd;

	if (name[0] == '/' && elf_pid > 0) {
		snprintf(path, sizeof(path), "/proc/%d/root%s", elf_pid, name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			*file_name = strdup(name);
			*elfp = NULL;
			return fd;
		}
	}
	return dwfl_linux_proc_find_elf(mod, userdata, name, base, file_name, elfp);
}

static char *debuginfo_path = NULL;

static const Dwfl_Callbacks callbacks = {
	.find_elf = find_elf,
	.find_debuginfo = dwfl_build_id_find_debuginfo, /* local files only */
	.debuginfo_path = &debuginfo_path,
};

Dwfl *proc_dwfl_begin(void)
{
	return dwfl_begin(&callbacks);
}

int proc_dwfl_report(Dwfl *d, int32_t pid)
{
	proc_dwfl_use(pid);
	dwfl_report_begin(d);
	int rc = dwfl_linux_proc_report(d, pid);

	if (dwfl_report_end(d, NULL, NULL) != 0 || rc != 0)
		return rc > 0 ? rc : ESRCH;
	return 0;
}
