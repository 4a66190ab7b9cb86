/* memtop's PID namespace, for the BPF programs that report process ids
 * (bpf/pidns.bpf.h): in a container the kernel's ids are not the ones /proc lists. */
#ifndef MEMTOP_PIDNS_H
#define MEMTOP_PIDNS_H

#include <stdbool.h>
#include <stdint.h>

struct mt_pidns {
	uint64_t dev; /* of /proc/self/ns/pid, as the kernel encodes it */
	uint64_t ino;
};

/* Fills ns and returns true when memtop runs in a PID namespace other than the initial
 * one; false in the initial one, or when it cannot tell (then ids are the kernel's). */
bool pidns_self(struct mt_pidns *ns);

/* Tells a skeleton, before it is loaded, the namespace to translate ids into */
#define PIDNS_CONFIGURE(skel)                                                                      \
	do {                                                                                       \
		struct mt_pidns ns_;                                                               \
		if (pidns_self(&ns_)) {                                                            \
			(skel)->rodata->pidns_dev = ns_.dev;                                       \
			(skel)->rodata->pidns_ino = ns_.ino;                                       \
		}                                                                                  \
	} while (0)

#endif
