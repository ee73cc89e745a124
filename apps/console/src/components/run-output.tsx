/**
 * A run's output with stderr set apart from stdout: each stream in its own labelled block, stderr in the error
 * colour ("(no output)" when both are empty).
 */
export function RunOutput({ stdout, stderr, runId }: { stdout: string; stderr: string; runId: number }) {
  if (!stdout && !stderr) return <pre className="output">(no output)</pre>;
  return (
    <>
      {stdout && (
        <div className="output-stream">
          <span className="stream-label" id={`run-${runId}-stdout`}>
            Output (stdout)
          </span>
          <pre className="output" aria-labelledby={`run-${runId}-stdout`} data-stream="stdout">
            {stdout}
          </pre>
        </div>
      )}
      {stderr && (
        <div className="output-stream">
          <span className="stream-label stderr" id={`run-${runId}-stderr`}>
            Errors (stderr)
          </span>
          <pre className="output stderr" aria-labelledby={`run-${runId}-stderr`} data-stream="stderr">
            {stderr}
          </pre>
        </div>
      )}
    </>
  );
}
