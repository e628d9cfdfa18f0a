package dev.flipper.workflow.tokens;

import dev.flipper.workflow.engine.SignalAction;

/**
 * Every token name the engine uses, in one place (docs/tokens.md, "Workflow tokens"). Names are
 * built from workflow, instance and job names, which the definition model restricts to {@code
 * [A-Za-z0-9_-]}, so a component never contains the delimiter. Stateless.
 *
 * <pre>
 * /definition/&lt;wf&gt;                                       stored definition
 * /workflow/&lt;wf&gt;/&lt;inst&gt;/instance                        instance record
 * /workflow/&lt;wf&gt;/&lt;inst&gt;/job/waiting/&lt;job&gt;               job not runnable (never run, parked after a run)
 * /workflow/&lt;wf&gt;/&lt;inst&gt;/input/&lt;job&gt;/&lt;input&gt;/&lt;event&gt;      event waiting in an input
 * /runnable/&lt;wf&gt;/&lt;inst&gt;/&lt;job&gt;                         job runnable; owned by a worker = running
 * /archive/&lt;wf&gt;/&lt;inst&gt;                                 finished instance; lease ends when it is due
 * /signal/global/&lt;ACTION&gt;, /signal/workflow/&lt;wf&gt;/&lt;ACTION&gt;, /signal/instance/&lt;wf&gt;/&lt;inst&gt;/&lt;ACTION&gt;
 * /worker/&lt;name&gt;                                        a worker process's heartbeat
 * </pre>
 */
public final class TokenLayout {
  /** The input of root jobs: they start with the instance. */
  public static final String WORKFLOW_START = "__WORKFLOW_START__";

  public static final String DEFINITIONS = "/definition/";
  public static final String WORKFLOWS = "/workflow/";
  public static final String RUNNABLE = "/runnable/";
  public static final String ARCHIVE = "/archive/";
  public static final String SIGNALS = "/signal/";
  public static final String WORKERS = "/worker/";

  private TokenLayout() {}

  public static String definition(String workflow) {
    return DEFINITIONS + workflow;
  }

  /** Every token of a workflow's active instances except runnable jobs. */
  public static String workflowPrefix(String workflow) {
    return WORKFLOWS + workflow + "/";
  }

  public static String instancePrefix(String workflow, String instance) {
    return WORKFLOWS + workflow + "/" + instance + "/";
  }

  public static String instanceRecord(String workflow, String instance) {
    return instancePrefix(workflow, instance) + "instance";
  }

  public static String waitingPrefix(String workflow, String instance) {
    return instancePrefix(workflow, instance) + "job/waiting/";
  }

  public static String waiting(String workflow, String instance, String job) {
    return waitingPrefix(workflow, instance) + job;
  }

  /** Every event of every input of {@code job}. */
  public static String inputsPrefix(String workflow, String instance, String job) {
    return instancePrefix(workflow, instance) + "input/" + job + "/";
  }

  public static String inputPrefix(String workflow, String instance, String job, String input) {
    return inputsPrefix(workflow, instance, job) + input + "/";
  }

  public static String event(
      String workflow, String instance, String job, String input, String event) {
    return inputPrefix(workflow, instance, job, input) + event;
  }

  public static String runnablePrefix(String workflow, String instance) {
    return RUNNABLE + workflow + "/" + instance + "/";
  }

  public static String runnable(String workflow, String instance, String job) {
    return runnablePrefix(workflow, instance) + job;
  }

  public static String archive(String workflow, String instance) {
    return ARCHIVE + workflow + "/" + instance;
  }

  public static String globalSignalPrefix() {
    return SIGNALS + "global/";
  }

  public static String workflowSignalPrefix(String workflow) {
    return SIGNALS + "workflow/" + workflow + "/";
  }

  public static String instanceSignalPrefix(String workflow, String instance) {
    return SIGNALS + "instance/" + workflow + "/" + instance + "/";
  }

  public static String globalSignal(SignalAction action) {
    return globalSignalPrefix() + action.name();
  }

  public static String workflowSignal(String workflow, SignalAction action) {
    return workflowSignalPrefix(workflow) + action.name();
  }

  public static String instanceSignal(String workflow, String instance, SignalAction action) {
    return instanceSignalPrefix(workflow, instance) + action.name();
  }

  /** The last component of a name. */
  public static String last(String name) {
    return name.substring(name.lastIndexOf('/') + 1);
  }

  /** {@code [workflow, instance, job]} of a runnable token's name. */
  public static String[] parseRunnable(String name) {
    String[] parts = name.substring(RUNNABLE.length()).split("/");
    if (parts.length != 3) {
      throw new IllegalArgumentException("not a runnable job token: " + name);
    }
    return parts;
  }

  /** {@code [workflow, instance]} of an archive token's name. */
  public static String[] parseArchive(String name) {
    String[] parts = name.substring(ARCHIVE.length()).split("/");
    if (parts.length != 2) {
      throw new IllegalArgumentException("not an archive token: " + name);
    }
    return parts;
  }
}
