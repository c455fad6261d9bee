// libelf and gelf from Debian's libelf-dev (elfutils). Only BinaryInfo imports this module.
#include <libelf.h>
#include <gelf.h>
