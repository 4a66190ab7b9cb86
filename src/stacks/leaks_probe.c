#include "leaks_probe.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <gelf.h>

size_t leaks_probe_skip(const unsigned char *code, size_t len)
{
#if defined(__x86_64__)
	static const unsigned char endbr64[] = {0xf3, 0x0f, 0x1e, 0xfa};
	static const unsigned char test_rdi[] = {0x48, 0x85, 0xff};
	size_t at = 0;

	if (len >= sizeof(endbr64) && !memcmp(code, endbr64, sizeof(endbr64)))
		at += sizeof(endbr64);
	if (len < at + sizeof(test_rdi) + 2 || memcmp(code + at, test_rdi, sizeof(test_rdi)))
		return 0;
	at += sizeof(test_rdi);
	/* jcc rel8, or 0f 8x rel32 */
	if ((code[at] & 0xf0) == 0x70 || (code[at] == 0x0f && (code[at + 1] & 0xf0) == 0x80))
		return at;
#else
	(void)code;
	(void)len;
#endif
	return 0;
}

/* The file offset of func's code, from the dynamic symbol table: 0 when not found */
static off_t code_offset(Elf *elf, const char *func)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t nph;
	GElf_Addr addr = 0;

	while (!addr && (scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNSYM || !sh.sh_entsize ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *name;

			if (gelf_getsym(d, (int)i, &sym) && GELF_ST_TYPE(sym.st_info) == STT_FUNC &&
			    sym.st_value && (name = elf_strptr(elf, sh.sh_link, sym.st_name)) &&
			    !strcmp(name, func)) {
				addr = sym.st_value;
				break;
			}
		}
	}
	if (!addr || elf_getphdrnum(elf, &nph))
		return 0;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD && addr >= ph.p_vaddr &&
		    addr < ph.p_vaddr + ph.p_filesz)
			return (off_t)(addr - ph.p_vaddr + ph.p_offset);
	}
	return 0;
}

size_t leaks_probe_offset(const char *file, const char *func)
{
	unsigned char code[16];
	size_t skip = 0;
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	Elf *elf;
	off_t at;

	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	if ((elf = elf_begin(fd, ELF_C_READ, NULL))) {
		if ((at = code_offset(elf, func)) > 0 &&
		    pread(fd, code, sizeof(code), at) == sizeof(code))
			skip = leaks_probe_skip(code, sizeof(code));
		elf_end(elf);
	}
	close(fd);
	return skip;
}
