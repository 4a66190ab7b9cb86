/* The drill-down's stacks as a call tree, as perf report's call graph shows them: the
 * stacks of each kind merged by function from the outermost frame (_start, main) down,
 * each node with the count of the stacks through it and its share of its kind's total.
 * A pure function of the list of stacks: the detail screen draws what it makes. */
#ifndef MEMTOP_DD_TREE_H
#define MEMTOP_DD_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "detail.h"

#define DD_NO_STACK SIZE_MAX

enum dd_node_type {
	DD_NODE_KIND,  /* a root: all stacks of one kind */
	DD_NODE_TRUNC, /* the stacks of a kind whose walk was cut: their outer frames unknown */
	DD_NODE_FRAME, /* a function */
};

struct dd_node {
	enum dd_node_type type;
	enum stack_kind kind;
	int depth;		      /* 0: a kind's root */
	size_t parent;		      /* index in the array; DD_NO_STACK for a root */
	size_t end;		      /* past its subtree: its descendants are the nodes before */
	size_t nchildren;	      /* children follow it, largest count first */
	const struct dd_frame *frame; /* DD_NODE_FRAME: the frame of the first stack merged */
	uint64_t count;		      /* of the stacks through it */
	uint64_t self;		      /* of the stacks that end at it */
	double share;		      /* count in percent of all stacks of its kind */
	bool estimated;		      /* one of its stacks' counts is an estimate */
	size_t stack; /* the largest stack ending at it (its index), or DD_NO_STACK */
	uint64_t key; /* the same for the same path in every tree built */
};

struct dd_tree {
	struct dd_node *nodes; /* depth first: a node, then its subtrees in order */
	size_t n;
};

/* The same function for the tree: the same symbol in the same module (any offset), or
 * for a frame without a symbol the same place in its module, else the same address. */
bool dd_frame_same(const struct dd_frame *a, const struct dd_frame *b);

/* Builds the tree of stacks[0..n) into t (whose old nodes are freed): a root per kind
 * present, in the order of enum stack_kind, then under a kind the stacks that were cut
 * (a [truncated] node) and the outermost functions. Nodes point into stacks' frames. */
void dd_tree_build(const struct dd_stack *stacks, size_t n, struct dd_tree *t);
void dd_tree_free(struct dd_tree *t);

#endif
