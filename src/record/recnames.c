/* The memory cgroups' names (snapshot.h's cg_sample.name and runtime), as a sample
 * records them: a replay names the containers as the live run did, on a machine without
 * their engines' files. They are one part of the sample's system fields
 * ("cgroups.names", recfields.def), coded here, recorded as a char array's bytes so that
 * a reader that does not know the part skips it, and a recording made before it replays
 * without names. doc/recordings.md has the layout. */
#include <stdlib.h>
#include <string.h>

#include "reccodec_impl.h"
#include "util.h"

void rec_names_put(struct rbuf *b, const struct snapshot *s)
{
	bool any = false;

	for (size_t i = 0; i < s->ncgroups; i++)
		any |= s->cgroups[i].name || s->cgroups[i].runtime;
	if (!any)
		return;
	rb_varint(b, s->ncgroups);
	for (size_t i = 0; i < s->ncgroups; i++) {
		rb_varint(b, s->cgroups[i].runtime);
		rb_str(b, s->cgroups[i].name ? s->cgroups[i].name : "");
	}
}

static const char *get(const uint8_t *p, size_t n, struct snapshot *s)
{
	struct rcur c = {p, n, 0, false};
	char name[CG_NAME_MAX];

	if (rc_varint(&c) != s->ncgroups)
		return "the names of other cgroups than the sample's";
	for (size_t i = 0; i < s->ncgroups && !c.bad; i++) {
		uint64_t rt = rc_varint(&c);
		rc_str(&c, name, sizeof(name));
		/* a runtime this memtop does not know: named, by nothing it can say */
		s->cgroups[i].runtime = rt < CG_RT_COUNT ? (uint8_t)rt : CG_RT_NONE;
		s->cgroups[i].name = name[0] && !c.bad ? xstrdup(name) : NULL;
	}
	if (c.bad || c.at != c.n)
		return c.bad ? "cut short in the cgroups' names" : "bytes after the cgroups' names";
	return NULL;
}

const char *rec_names_get(const uint8_t *p, size_t n, struct snapshot *s)
{
	const char *why = n ? get(p, n, s) : NULL;

	if (why)
		for (size_t i = 0; i < s->ncgroups; i++) {
			free(s->cgroups[i].name);
			s->cgroups[i].name = NULL;
			s->cgroups[i].runtime = CG_RT_NONE;
		}
	return why;
}
