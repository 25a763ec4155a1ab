// Commands whose back ends are still being built answer with a clear error instead of crashing.
#include "device/errors.hpp"
#include "tools/cli.hpp"

namespace warpsim::cli {
int cmd_validate(const std::vector<std::string>&, Io&) { throw Error("validate: not built yet", ExitCode::Internal); }
}  // namespace warpsim::cli
