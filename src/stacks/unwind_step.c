#include "unwind_step.h"

#include <stdlib.h>
#include <string.h>

#include <gelf.h>

#include "unwind.h"

size_t unwind_prologue_end(const unsigned char *code, size_t len)
{
	static const unsigned char endbr64[] = {0xf3, 0x0f, 0x1e, 0xfa};
	static const unsigned char push_mov[] = {0x55, 0x48, 0x89, 0xe5};
	size_t p = 0;

	if (len >= sizeof(endbr64) && !memcmp(code, endbr64, sizeof(endbr64)))
		p = sizeof(endbr64);
	if (len >= p + sizeof(push_mov) && !memcmp(code + p, push_mov, sizeof(push_mov)))
		return p + sizeof(push_mov);
	return 0;
}

/* STEP_CFI when cfi covers addr, STEP_END when it also says the frame is the outermost
 * (the return address undefined: _start, a thread's start); else STEP_NONE */
static enum step cfi_step(Dwarf_CFI *cfi, Dwarf_Addr addr)
{
	Dwarf_Frame *frame = NULL;
	Dwarf_Op mem[3], *ops;
	size_t nops;
	enum step st = STEP_CFI;

	if (!cfi || dwarf_cfi_addrframe(cfi, addr, &frame) != 0)
		return STEP_NONE;
	int ra = dwarf_frame_info(frame, NULL, NULL, NULL);

	if (ra >= 0 && dwarf_frame_register(frame, ra, mem, &ops, &nops) == 0 && ops && !nops)
		st = STEP_END;
	free(frame);
	return st;
}

/* Whether the function at look had set up a frame pointer by pc. */
static bool keeps_fp(Dwfl_Module *m, Dwarf_Addr look, Dwarf_Addr pc)
{
#if defined(__x86_64__)
	GElf_Off off;
	GElf_Sym sym;
	Dwarf_Addr bias, addr;
	const char *name = dwfl_module_addrinfo(m, look, &off, &sym, NULL, NULL, NULL);

	if (!name || GELF_ST_TYPE(sym.st_info) != STT_FUNC)
		return false;
	addr = look - off;
	Elf_Scn *scn = dwfl_module_address_section(m, &addr, &bias);
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;

	if (!data || !data->d_buf || addr >= data->d_size)
		return false;
	size_t end =
		unwind_prologue_end((const unsigned char *)data->d_buf + addr, data->d_size - addr);
	return end && pc >= look - off + end;
#else
	(void)m;
	(void)look;
	(void)pc;
	return false;
#endif
}

/* Whether look lies in the function at the module's entry point: the first code of a
 * program or of the dynamic loader (ld.so's _start, which has no CFI), where every
 * stack begins. */
static bool at_entry(Dwfl_Module *m, Dwarf_Addr look)
{
	GElf_Off off;
	GElf_Sym sym;
	GElf_Ehdr ehdr;
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(m, &bias);
	const char *name = dwfl_module_addrinfo(m, look, &off, &sym, NULL, NULL, NULL);

	if (!elf || !name || !gelf_getehdr(elf, &ehdr) || !ehdr.e_entry)
		return false;
	return look - off == ehdr.e_entry + bias;
}

enum step unwind_module_step(Dwfl_Module *m, Dwarf_Addr pc, Dwarf_Addr look)
{
	Dwarf_Addr bias;
	Dwarf_CFI *cfi = dwfl_module_eh_cfi(m, &bias);
	enum step st = cfi_step(cfi, look - bias);

	if (st == STEP_NONE) {
		cfi = dwfl_module_dwarf_cfi(m, &bias);
		st = cfi_step(cfi, look - bias);
	}
	if (st == STEP_NONE && at_entry(m, look))
		st = STEP_END;
	if (st == STEP_NONE && keeps_fp(m, look, pc))
		st = STEP_FP;
	return st;
}
