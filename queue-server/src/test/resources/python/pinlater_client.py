"""A PinLater client written with Apache Thrift's Python library, for the cross-language test.

Usage: pinlater_client.py GEN_PY_DIR PORT enqueue QUEUE COUNT   -> JSON list of descriptors
       pinlater_client.py GEN_PY_DIR PORT lookup DESCRIPTOR...  -> JSON map descriptor -> job info
       pinlater_client.py GEN_PY_DIR PORT enqueue_missing QUEUE -> JSON {"errorCode": ..., "message": ...}
"""
import json
import sys


def main():
    gen_py, port, mode, args = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    sys.path.insert(0, gen_py)
    from thrift.protocol import TBinaryProtocol
    from thrift.transport import TSocket, TTransport
    from flipper_thrift import PinLater
    from flipper_thrift.ttypes import (PinLaterEnqueueRequest, PinLaterException, PinLaterJob,
                                       PinLaterJobState, PinLaterLookupJobRequest, RequestContext)

    transport = TTransport.TFramedTransport(TSocket.TSocket('127.0.0.1', port))
    client = PinLater.Client(TBinaryProtocol.TBinaryProtocol(transport))
    transport.open()
    context = RequestContext(source='python-test:localhost')
    try:
        if mode == 'enqueue':
            queue, count = args[0], int(args[1])
            jobs = [PinLaterJob(body=('py-job-%d' % i).encode('utf-8'), numAttemptsAllowed=3,
                                customStatus='from python') for i in range(count)]
            out = client.enqueueJobs(context, PinLaterEnqueueRequest(queueName=queue, jobs=jobs)).jobDescriptors
        elif mode == 'lookup':
            infos = client.lookupJobs(context, PinLaterLookupJobRequest(jobDescriptors=args, includeBody=True))
            out = {key: {'state': PinLaterJobState._VALUES_TO_NAMES[info.jobState],
                         'body': info.body.decode('utf-8'),
                         'customStatus': info.customStatus,
                         'attemptsAllowed': info.attemptsAllowed}
                   for key, info in infos.items()}
        elif mode == 'enqueue_missing':
            try:
                client.enqueueJobs(context, PinLaterEnqueueRequest(queueName=args[0], jobs=[PinLaterJob(body=b'x')]))
                out = {'errorCode': None}
            except PinLaterException as e:
                out = {'errorCode': e.errorCode, 'message': e.message}
        else:
            raise SystemExit('unknown mode ' + mode)
    finally:
        transport.close()
    print(json.dumps(out))


if __name__ == '__main__':
    main()
