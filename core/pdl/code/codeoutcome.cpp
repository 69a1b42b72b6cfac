#include "core/pdl/code/codeoutcome.h"

#include <algorithm>

namespace hako::pdl::code {

bool CodeOutcome::matchesException(const std::string& name) const
{
    if (status == Status::Ok || status == Status::Cancelled)
        return false;
    if (name == errorType)
        return true;
    return std::find(errorTypes.begin(), errorTypes.end(), name) != errorTypes.end();
}

std::string CodeOutcome::describe() const
{
    switch (status) {
    case Status::Ok:
        return {};
    case Status::Exception:
        return errorMessage.empty() ? errorType : errorType + ": " + errorMessage;
    case Status::TimedOut:
    case Status::Cancelled:
    case Status::Failed:
        break;
    }
    return errorMessage;
}

} // namespace hako::pdl::code
