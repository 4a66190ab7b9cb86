/* Programs shared through bpffs (bpf_pins.c). A memtop service (--record or --serve, as
 * root) pins its BPF object's maps, its attached programs' links and its iterator
 * programs under BPF_PINS_DIR, and last a meta map that says who pinned them (pid and
 * start time), for which build of the programs, in which PID namespace and boot, which
 * concerns are on and where it records. Any other memtop started as root while that
 * service runs uses them instead of loading its own: it opens the object without loading
 * it, takes the pinned maps' descriptors and maps their global data, and opens the pinned
 * links, which keep the programs attached as long as either of them holds them. The
 * service removes its pins when it stops; pins whose owner is gone (a killed service) are
 * removed by the next memtop that finds them; pins of another build or another PID
 * namespace, and pins whose meta map or maps are not of this memtop's types and sizes,
 * are left alone and not used. Each such case is said in one line.
 * A service makes its pins in a directory of its own and renames it to BPF_PINS_DIR
 * whole, where no other set is: of two services starting together one set is published
 * and the other service keeps its programs to itself, removing only what it made. */
#ifndef MEMTOP_BPF_PINS_H
#define MEMTOP_BPF_PINS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where the pins are: /sys/fs/bpf/memtop; with MEMTOP_PINS_DIR=/sys/fs/bpf/NAME (NAME of
 * letters, digits and '_', else ignored), there: a test's service, kept from the memtops
 * of the tests beside it */
const char *bpf_pins_dir(void);
#define BPF_PINS_DIR bpf_pins_dir()

struct bpf_pins;
struct bpf_program;
struct bpf_link;
struct memtop_bpf;

/* The pins of a running service of this build, NULL when there are none to use: then
 * one line in say (cleared first) where some were found and removed or left alone */
struct bpf_pins *bpf_pins_find(char *say, size_t len);
/* Whether a service of this build pins its programs, read only (nothing removed): then
 * its recording (a file or a directory; "" if none) in recording */
bool bpf_pins_service(char *recording, size_t len);
/* The service that pinned them, and the concerns it has on (bit i: BPF_CONCERNS' i-th) */
int bpf_pins_owner(const struct bpf_pins *p);
unsigned bpf_pins_concerns(const struct bpf_pins *p);
/* skel, opened and not loaded, given the pinned maps (with its global data mapped from
 * them). Returns 0 or a negative errno with a few words in why. */
int bpf_pins_reuse(const struct bpf_pins *p, struct memtop_bpf *skel, char *why, size_t len);
/* The pinned link of the program named prog, NULL with errno set */
struct bpf_link *bpf_pins_link(const struct bpf_pins *p, const char *prog);
/* The pinned program named prog's descriptor, kept by p; -1 with errno set */
int bpf_pins_prog_fd(struct bpf_pins *p, const char *prog);

/* Whether a service can pin here (bpffs mounted where it is not, a map made and pinned
 * as a trial); 0, or a negative errno with one line in why ("--pin: ...") */
int bpf_pins_check(char *why, size_t len);
/* A service: the directory made (bpffs mounted where it is not) for pins about to be
 * added; NULL with one line in say when it cannot be. */
struct bpf_pins *bpf_pins_create(char *say, size_t len);
/* Pins one attached program's link, or an iterator program. 0 or a negative errno. */
int bpf_pins_add_link(struct bpf_pins *p, const char *prog, struct bpf_link *link);
int bpf_pins_add_prog(struct bpf_pins *p, struct bpf_program *prog);
/* Pins every map of skel, completes the meta map and renames the set to BPF_PINS_DIR:
 * from then on other memtops use them.
 * 0 or a negative errno with one line in say. */
int bpf_pins_publish(struct bpf_pins *p, struct memtop_bpf *skel, unsigned concerns,
		     const char *recording, char *say, size_t len);

/* Closes what p holds; a service's pins are removed (its own set only) */
void bpf_pins_close(struct bpf_pins *p);

#endif
