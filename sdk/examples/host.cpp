// A host program running PDL through Hako: `hako_sdk_example [PROGRAM.pdl] [NAME=VALUE...]`.
// Without a program it runs a small one given as text. Build it against an installed Hako:
//
//   find_package(Hako REQUIRED)
//   target_link_libraries(host PRIVATE Hako::pdl)

#include <hako/pdl.h>

#include <cstdio>
#include <string>

int main(int argc, char** argv)
{
    hako::sdk::RunOptions options;
    // NAME=VALUE arguments become the program's variables (VALUE as JSON, else as text).
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        const size_t eq = arg.find('=');
        if (eq == std::string::npos)
            continue;
        const std::string value = arg.substr(eq + 1);
        options.scope[arg.substr(0, eq)] =
            hako::sdk::Json::accept(value) ? hako::sdk::Json::parse(value) : hako::sdk::Json(value);
    }
    // Model replies as they stream in.
    options.onEvent = [](const hako::sdk::Event& event) {
        if (event.kind == hako::sdk::Event::Kind::ModelText)
            std::fputs(event.text.c_str(), stderr);
    };
    const hako::sdk::RunOutcome outcome =
        argc > 1 ? hako::sdk::runFile(argv[1], options)
                 : hako::sdk::runString("description: greeting\n"
                                        "defs:\n  name: World\n"
                                        "text: \"Hello, ${ name }!\"\n",
                                        options);
    if (!outcome.ok) {
        std::fprintf(stderr, "%s:%d: %s\n", outcome.errorFile.c_str(), outcome.errorLine,
                     outcome.error.c_str());
        return 1;
    }
    std::printf("%s\n", outcome.text.c_str());
    return 0;
}
