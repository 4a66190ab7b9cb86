/* What a BPF object's descriptor is, before one pinned by another program is used as
 * this memtop's (bpf_pins.c) */
#ifndef MEMTOP_BPF_OBJINFO_H
#define MEMTOP_BPF_OBJINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 'm' a map, 'p' a program, 'l' a link, 0 none */
char objinfo_obj_kind(int fd);
/* Whether fd is a map of that type, key and value sizes and entries (entries 0: any);
 * else what it is in what (a few words). Its id in *id (id may be NULL). */
bool objinfo_map_is(int fd, uint32_t type, uint32_t key, uint32_t value, uint32_t entries,
		    uint32_t *id, char *what, size_t len);
/* Whether fd is a program (kind 'p') named name, as the kernel keeps it (cut short), or
 * a link (kind 'l') of one; else what it is in what */
bool objinfo_prog_is(int fd, char kind, const char *name, char *what, size_t len);

#endif
