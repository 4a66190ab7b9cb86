/* libFuzzer harness for memtop's readers of untrusted text: /proc files (meminfo,
 * vmstat, PSI, uptime, a NUMA node's meminfo; a process's stat, statm, smaps_rollup,
 * status, cgroup, smaps, numa_maps), /dev/kmsg records, /proc/kallsyms lines, /proc/slabinfo,
 * theme files, --columns lists, the parsers of typed values (src/prefs/parse.c), and the escapers
 * that put process names on the screen and in JSON (recordings.c fuzzes the recordings).
 * The first byte picks the reader; the rest is its input. `make fuzz` builds it with ASan
 * and UBSan and runs it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "columns.h"
#include "detail.h"
#include "detail_cli.h"
#include "kallsyms.h"
#include "kmsg.h"
#include "numa.h"
#include "parse.h"
#include "procfs.h"
#include "slabinfo.h"
#include "symbolize.h"
#include "text.h"
#include "theme.h"

enum {
	F_MEMINFO,
	F_VMSTAT,
	F_PSI,
	F_UPTIME,
	F_ROLLUP,
	F_STATUS,
	F_CGROUP,
	F_SMAPS,
	F_KMSG,
	F_KALLSYMS,
	F_THEME,
	F_ESCAPE,
	F_COLUMNS,
	F_INPUT,
	F_STAT,
	F_STATM,
	F_SLABINFO,
	F_NODE_MEMINFO,
	F_NUMA_MAPS,
	F_COUNT
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kmsg_parser kp; /* kept across records, as the reader keeps it */
	static FILE *null;
	char err[256], small[24], warn[512], *text;
	size_t len = size ? size - 1 : 0;

	if (!size)
		return 0;
	if (!null)
		null = fopen("/dev/null", "w");
	text = malloc(len + 1);
	memcpy(text, data + 1, len);
	text[len] = '\0';
	switch (data[0] % F_COUNT) {
	case F_MEMINFO: {
		uint64_t m[MI_COUNT];
		parse_meminfo(text, m, NULL);
		break;
	}
	case F_VMSTAT: {
		uint64_t v[VS_COUNT];
		parse_vmstat(text, v, NULL);
		break;
	}
	case F_PSI: {
		struct sys_psi p;
		parse_psi(text, &p);
		break;
	}
	case F_UPTIME: {
		double u;
		parse_uptime(text, &u);
		break;
	}
	case F_STAT: {
		struct pid_stat st;
		parse_stat(text, &st);
		break;
	}
	case F_STATM: {
		struct pid_statm sm;
		parse_statm(text, &sm);
		break;
	}
	case F_NODE_MEMINFO: {
		struct node_mem n = {0};
		parse_node_meminfo(text, &n);
		break;
	}
	case F_NUMA_MAPS: {
		struct numa_use u;
		char line[256];
		if (!parse_numa_maps(text, 4, &u))
			for (int i = 0; i < DD_NUMA_LINES; i++)
				dd_numa_line(&u, i, 200, line, sizeof(line));
		break;
	}
	case F_ROLLUP: {
		struct dd_breakdown b = {0};
		parse_smaps_rollup(text, &b);
		break;
	}
	case F_STATUS: {
		struct dd_breakdown b = {0};
		parse_status_detail(text, &b);
		break;
	}
	case F_CGROUP:
		parse_proc_memcg(text, small, sizeof(small));
		break;
	case F_SMAPS: {
		struct detail d;
		detail_init(&d);
		if (!parse_smaps(text, &d.maps, &d.nmaps))
			detail_group(&d);
		detail_clear(&d);
		break;
	}
	case F_KMSG: {
		struct mt_event ev;
		kmsg_parse_record(&kp, (const char *)data + 1, len, 1e9, &ev);
		break;
	}
	case F_KALLSYMS: {
		uint64_t addr;
		char type, name[SYM_NAME_LEN], module[SYM_MODULE_LEN];
		parse_kallsyms_line(text, &addr, &type, name, sizeof(name), module, sizeof(module));
		break;
	}
	case F_SLABINFO: {
		struct slab_info si = {0};
		parse_slabinfo(text, &si);
		free(si.caches);
		break;
	}
	case F_THEME:
		theme_free(theme_parse(text, err, sizeof(err), warn, sizeof(warn)));
		theme_free(theme_parse(text, err, sizeof(err), small, sizeof(small)));
		break;
	case F_ESCAPE: {
		char out[64];
		escape_display(text, out, sizeof(out), true);
		escape_display(text, out, sizeof(out), false);
		escape_display(text, small, 2, true);
		json_string(null, text);
		cmd_short(text);
		break;
	}
	case F_COLUMNS: {
		unsigned set;
		columns_parse(text, &set, err, sizeof(err));
		break;
	}
	case F_INPUT: {
		double d;
		uint32_t uid;
		int32_t pids[4];
		int n;
		enum col_id col;
		unsigned set;
		parse_delay(text, &d, err, sizeof(err));
		parse_user(text, &uid, err, sizeof(err));
		parse_pid(text, pids, err, sizeof(err));
		parse_pids(text, pids, 4, &n, err, sizeof(err));
		parse_column(text, &col, err, sizeof(err));
		parse_columns(text, &set, small, sizeof(small));
		for (size_t size = 0; size <= PARSE_QUOTE_SIZE; size++)
			parse_quote(text, err, size);
		break;
	}
	}
	free(text);
	return 0;
}
