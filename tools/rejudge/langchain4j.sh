#!/bin/sh
# LangChain4jAgent.java in the JDK's source-file mode, on the class path the agents
# runner resolved at install (INSTALL/classpath.txt: langchain4j and langchain4j-open-ai).
#   tools/rejudge/play.sh S.sse OUT tools/rejudge/langchain4j.sh ~/.cache/responses-oracle/agents/langchain4j-1.19.0
set -eu
exec java -cp "$(cat "$1/classpath.txt")" "$(dirname "$0")/LangChain4jAgent.java"
