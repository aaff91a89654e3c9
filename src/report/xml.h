// XML and HTML text, escaped (the JUnit and HTML reports).
#pragma once

#include <string>

namespace trainproof {

std::string xml_escape(const std::string& s);

}  // namespace trainproof
