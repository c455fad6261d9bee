// libdwarf from Debian's libdwarf-dev (the 20210528 API). It ships no pkg-config file,
// so the header path and the library name are spelled out here. Only DWARFInfo imports this module.
#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>

// libdwarf 20210528 keeps, in this process-wide variable, a function that reads ELF section
// flags through its own libelf reader. dwarf_init_path sets it, and a later dwarf_object_init_b
// calls it with the caller's object, which it is not: DWARFInfo clears it around
// dwarf_object_init_b (under a lock). Not declared in libdwarf.h; only the pointer is used.
extern void *_dwarf_get_elf_flags_func_ptr;

/// Stores `reader` in libdwarf's flags-reader variable and returns what was there.
static inline void *typeinfo_exchange_dwarf_elf_flags_reader(void *reader) {
    void *previous = _dwarf_get_elf_flags_func_ptr;
    _dwarf_get_elf_flags_func_ptr = reader;
    return previous;
}
