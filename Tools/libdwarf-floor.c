/* The least any reader built on libdwarf pays for a whole .debug_info: every unit's header and
   root, and each top-level entry, whose subtree dwarf_siblingof_b skips (walking it: compilers
   write no DW_AT_sibling); no attribute is read, libdwarf's allocation record is off.
   Tools/bench-dump builds it with gcc and runs it beside typeinfo (issue 14).

     libdwarf-floor FILE */
#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>
#include <stdio.h>

int main(int argc, char **argv) {
    Dwarf_Debug debug = 0;
    Dwarf_Error error = 0;
    if (argc != 2) {
        fprintf(stderr, "usage: libdwarf-floor FILE\n");
        return 2;
    }
    dwarf_set_de_alloc_flag(0);
    if (dwarf_init_path(argv[1], 0, 0, DW_DLC_READ, DW_GROUPNUMBER_ANY, 0, 0, &debug, 0, 0, 0, &error) != DW_DLV_OK) {
        fprintf(stderr, "libdwarf-floor: libdwarf cannot read %s\n", argv[1]);
        return 1;
    }
    unsigned long units = 0, entries = 0;
    for (;;) {
        Dwarf_Unsigned next = 0;
        Dwarf_Half unitType = 0;
        if (dwarf_next_cu_header_d(debug, 1, 0, 0, 0, 0, 0, 0, 0, 0, &next, &unitType, &error) != DW_DLV_OK) break;
        units++;
        Dwarf_Die root = 0, entry = 0;
        if (dwarf_siblingof_b(debug, 0, 1, &root, &error) != DW_DLV_OK) continue;
        if (dwarf_child(root, &entry, &error) == DW_DLV_OK) {
            while (entry) {
                Dwarf_Die sibling = 0;
                entries++;
                int result = dwarf_siblingof_b(debug, entry, 1, &sibling, &error);
                dwarf_dealloc_die(entry);
                entry = result == DW_DLV_OK ? sibling : 0;
            }
        }
        dwarf_dealloc_die(root);
    }
    printf("%lu units, %lu top-level entries\n", units, entries);
    dwarf_finish(debug, &error);
    return 0;
}
