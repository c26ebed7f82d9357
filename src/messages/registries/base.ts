// DMTF's Base message registry 1.12 (Base.1.12.0, DSP8011) expressed as data.
import type { RegistryDef } from '../registry-types.js';

export const BASE_REGISTRY = {
  prefix: 'Base',
  version: '1.12.0',
  name: 'Base Message Registry',
  description: 'This registry defines the base messages for Redfish',
  owningEntity: 'DMTF',
  language: 'en',
  messages: {
    AccessDenied: {
      description:
        'Indicates that while attempting to access, connect to, or transfer to or from another resource, the service denied access.',
      message: "While attempting to establish a connection to '%1', the service denied access.",
      severity: 'Critical',
      paramTypes: ['string'],
      resolution: 'Attempt to ensure that the URI is correct and that the service has the appropriate credentials.',
    },
    AccountForSessionNoLongerExists: {
      description: 'Indicates that the account for the session has been removed, thus the session has been removed as well.',
      message: 'The account for the current session has been removed, thus the current session has been removed as well.',
      severity: 'OK',
      paramTypes: [],
      resolution: 'Attempt to connect with a valid account.',
    },
    AccountModified: {
      description: 'Indicates that the account was successfully modified.',
      message: 'The account was successfully modified.',
      severity: 'OK',
      paramTypes: [],
      resolution: 'No resolution is required.',
    },
    AccountNotModified: {
      description: 'Indicates that the modification requested for the account was not successful.',
      message: 'The account modification request failed.',
      severity: 'Warning',
      paramTypes: [],
      resolution: 'The modification may have failed due to permission issues or issues with the request body.',
    },
    AccountRemoved: {
      description: 'Indicates that the account was successfully removed.',
      message: 'The account was successfully removed.',
      severity: 'OK',
      paramTypes: [],
      resolution: 'No resolution is required.',
    },
    ActionDeprecated: {
      description: 'Indicates the action is deprecated.',
      message: 'The action %1 is deprecated.',
      severity: 'Warning',
      paramTypes: ['string'],
      resolution: 'Refer to the schema guide for more information.',
    },
    ActionNotSupported: {
      description: 'Indicates that the action supplied with the POST operation is not supported by the resource.',
      message: 'The action %1 is not supported by the resource.',
      severity: 'Critical',
      paramTypes: ['string'],
      resolution:
        'The action supplied cannot be resubmitted to the implementation.  Perhaps the action was invalid, the wrong resource was the target or the implementation documentation may be of assistance.',
    },
    ActionParameterDuplicate: {
      description: 'Indicates that the action was supplied with a duplicated parameter in the request body.',
      message: 'The action %1 was submitted with more than one value for the parameter %2.',
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'Resubmit the action with only one instance of the parameter in the request body if the operation failed.',
    },
    ActionParameterMissing: {
      description: 'Indicates that the action requested was missing a parameter that is required to process the action.',
      message: 'The action %1 requires the parameter %2 to be present in the request body.',
      severity: 'Critical',
      paramTypes: ['string', 'string'],
      resolution: 'Supply the action with the required parameter in the request body when the request is resubmitted.',
    },
    ActionParameterNotSupported: {
      description: 'Indicates that the parameter supplied for the action is not supported on the resource.',
      message: 'The parameter %1 for the action %2 is not supported on the target resource.',
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'Remove the parameter supplied and resubmit the request if the operation failed.',
    },
    ActionParameterUnknown: {
      description: 'Indicates that an action was submitted but a parameter supplied did not match any of the known parameters.',
      message: 'The action %1 was submitted with the invalid parameter %2.',
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'Correct the invalid parameter and resubmit the request if the operation failed.',
    },
    ActionParameterValueConflict: {
      description:
        'Indicates that the requested parameter value could not be completed, because of a mismatch with other parameters or properties in the resource.',
      message: "The parameter '%1' with the requested value of '%2' does not meet the constraints of the implementation.",
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'No resolution is required.',
    },
    ActionParameterValueError: {
      description: 'Indicates that a parameter was given an invalid value.',
      message: 'The value for the parameter %1 in the action %2 is invalid.',
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'Correct the value for the parameter in the request body and resubmit the request if the operation failed.',
    },
    ActionParameterValueFormatError: {
      description:
        'Indicates that a parameter was given the correct value type but the value of that parameter was not supported.  This includes the value size or length has been exceeded.',
      message: "The value '%1' for the parameter %2 in the action %3 is of a different format than the parameter can accept.",
      severity: 'Warning',
      paramTypes: ['string', 'string', 'string'],
      resolution: 'Correct the value for the parameter in the request body and resubmit the request if the operation failed.',
    },
    ActionParameterValueNotInList: {
      description:
        'Indicates that a parameter was given the correct value type but the value of that parameter was not supported.  The value is not in an enumeration.',
      message: "The value '%1' for the parameter %2 in the action %3 is not in the list of acceptable values.",
      severity: 'Warning',
      paramTypes: ['string', 'string', 'string'],
      resolution:
        'Choose a value from the enumeration list that the implementation can support and resubmit the request if the operation failed.',
    },
    ActionParameterValueTypeError: {
      description:
        'Indicates that a parameter was given the wrong value type, such as when a number is supplied for a parameter that requires a string.',
      message: "The value '%1' for the parameter %2 in the action %3 is of a different type than the parameter can accept.",
      severity: 'Warning',
      paramTypes: ['string', 'string', 'string'],
      resolution: 'Correct the value for the parameter in the request body and resubmit the request if the operation failed.',
    },
    ChassisPowerStateOffRequired: {
      description: 'Indicates that the request requires a specified chassis to be powered off.',
      message: "The Chassis with Id '%1' requires to be powered off to perform this request.",
      severity: 'Warning',
      paramTypes: ['string'],
      resolution: 'Power off the specified chassis and resubmit the request.',
    },
    ChassisPowerStateOnRequired: {
      description: 'Indicates that the request requires a specified chassis to be powered on.',
      message: "The chassis with Id '%1' requires to be powered on to perform this request.",
      severity: 'Warning',
      paramTypes: ['string'],
      resolution: 'Power on the specified chassis and resubmit the request.',
    },
    ConditionInRelatedResource: {
      description: 'Indicates that one or more fault or error conditions exist in a related resource.',
      message: 'One or more conditions exist in a related resource.  See the OriginOfCondition property.',
      severity: 'Warning',
      paramTypes: [],
      resolution:
        'Check the Conditions array in the resource shown in the OriginOfCondition property to determine the conditions that need attention.',
    },
    CouldNotEstablishConnection: {
      description:
        'Indicates that the attempt to access the resource, file, or image at the URI was unsuccessful because a session could not be established.',
      message: "The service failed to establish a connection with the URI '%1'.",
      severity: 'Critical',
      paramTypes: ['string'],
      resolution: 'Ensure that the URI contains a valid and reachable node name, protocol information and other URI components.',
    },
    CreateFailedMissingReqProperties: {
      description:
        'Indicates that a create was attempted on a resource but that properties that are required for the create operation were missing from the request.',
      message: 'The create operation failed because the required property %1 was missing from the request.',
      severity: 'Critical',
      paramTypes: ['string'],
      resolution: 'Correct the body to include the required property with a valid value and resubmit the request if the operation failed.',
    },
    CreateLimitReachedForResource: {
      description: 'Indicates that no more resources can be created on the resource as it has reached its create limit.',
      message: 'The create operation failed because the resource has reached the limit of possible resources.',
      severity: 'Critical',
      paramTypes: [],
      resolution: 'Either delete resources and resubmit the request if the operation failed or do not resubmit the request.',
    },
    Created: {
      description: 'Indicates that all conditions of a successful create operation have been met.',
      message: 'The resource has been created successfully.',
      severity: 'OK',
      paramTypes: [],
      resolution: 'None.',
    },
    EmptyJSON: {
      description: 'Indicates that the request body contained an empty JSON object when one or more properties are expected in the body.',
      message: 'The request body submitted contained an empty JSON object and the service is unable to process it.',
      severity: 'Warning',
      paramTypes: [],
      resolution: 'Add properties in the JSON object and resubmit the request.',
    },
    EventSubscriptionLimitExceeded: {
      description:
        'Indicates that a event subscription establishment has been requested but the operation failed due to the number of simultaneous connection exceeding the limit of the implementation.',
      message: 'The event subscription failed due to the number of simultaneous subscriptions exceeding the limit of the implementation.',
      severity: 'Critical',
      paramTypes: [],
      resolution:
        'Reduce the number of other subscriptions before trying to establish the event subscription or increase the limit of simultaneous subscriptions, if supported.',
    },
    GeneralError: {
      description:
        'Indicates that a general error has occurred.  Use in `@Message.ExtendedInfo` is discouraged.  When used in `@Message.ExtendedInfo`, implementations are expected to include a `Resolution` property with this message and provide a service-defined resolution to indicate how to resolve the error.',
      message:
        'A general error has occurred.  See Resolution for information on how to resolve the error, or @Message.ExtendedInfo if Resolution is not provided.',
      severity: 'Critical',
      paramTypes: [],
      resolution: 'None.',
    },
    InsufficientPrivilege: {
      description:
        'Indicates that the credentials associated with the established session do not have sufficient privileges for the requested operation.',
      message:
        'There are insufficient privileges for the account or credentials associated with the current session to perform the requested operation.',
      severity: 'Critical',
      paramTypes: [],
      resolution: 'Either abandon the operation or change the associated access rights and resubmit the request if the operation failed.',
    },
    InternalError: {
      description: 'Indicates that the request failed for an unknown internal error but that the service is still operational.',
      message: 'The request failed due to an internal service error.  The service is still operational.',
      severity: 'Critical',
      paramTypes: [],
      resolution: 'Resubmit the request.  If the problem persists, consider resetting the service.',
    },
    InvalidIndex: {
      description: 'The index is not valid.',
      message: 'The index %1 is not a valid offset into the array.',
      severity: 'Warning',
      paramTypes: ['number'],
      resolution: 'Verify the index value provided is within the bounds of the array.',
    },
    InvalidJSON: {
      description: 'Indicates that the request body contains invalid JSON.',
      message: 'The request body submitted is invalid JSON starting at line %1 and could not be parsed by the receiving service.',
      severity: 'Critical',
      paramTypes: ['number'],
      resolution: 'Ensure that the request body is valid JSON and resubmit the request.',
    },
    InvalidObject: {
      description:
        'Indicates that the object in question is invalid according to the implementation.  Examples include a firmware update malformed URI.',
      message: "The object at '%1' is invalid.",
      severity: 'Critical',
      paramTypes: ['string'],
      resolution: 'Either the object is malformed or the URI is not correct.  Correct the condition and resubmit the request if it failed.',
    },
    InvalidURI: {
      description: 'Indicates that the operation encountered a URI that does not correspond to a valid resource.',
      message: 'The URI %1 was not found.',
      severity: 'Critical',
      paramTypes: ['string'],
      resolution: 'Provide a valid URI and resubmit the request.',
    },
    MalformedJSON: {
      description: 'Indicates that the request body was malformed JSON.',
      message: 'The request body submitted was malformed JSON and could not be parsed by the receiving service.',
      severity: 'Critical',
      paramTypes: [],
      resolution: 'Ensure that the request body is valid JSON and resubmit the request.',
    },
    MaximumErrorsExceeded: {
      description: 'Indicates that sufficient errors have occurred that the reporting service cannot return them all.',
      message: 'Too many errors have occurred to report them all.',
      severity: 'Critical',
      paramTypes: [],
      resolution: 'Resolve other reported errors and retry the current operation.',
    },
    NetworkNameResolutionNotConfigured: {
      description: 'Indicates that network-based name resolution has not been configured on the service.',
      message: 'Network name resolution has not been configured on this service.',
      severity: 'Warning',
      paramTypes: [],
      resolution:
        'Configure the network name resolution protocol support on this service, or update any URI values to include an IP address instead of a network name and resubmit the request.',
    },
    NetworkNameResolutionNotSupported: {
      description: 'Indicates the service does not support network-based name resolution.',
      message: 'Resolution of network-based names is not supported by this service.',
      severity: 'Warning',
      paramTypes: [],
      resolution: 'Update any URI values to include an IP address instead of a network name and resubmit the request.',
    },
    NoOperation: {
      description: 'Indicates that the requested operation will not perform any changes on the service.',
      message: 'The request body submitted contain no data to act upon and no changes to the resource took place.',
      severity: 'Warning',
      paramTypes: [],
      resolution: 'Add properties in the JSON object and resubmit the request.',
    },
    NoValidSession: {
      description: 'Indicates that the operation failed because a valid session is required in order to access any resources.',
      message: 'There is no valid session established with the implementation.',
      severity: 'Critical',
      paramTypes: [],
      resolution: 'Establish a session before attempting any operations.',
    },
    OperationFailed: {
      description:
        'Indicates that one of the internal operations necessary to complete the request failed.  Examples of this are when an internal service provider is unable to complete the request, such as in aggregation or RDE.',
      message: 'An error occurred internal to the service as part of the overall request.  Partial results may have been returned.',
      severity: 'Warning',
      paramTypes: [],
      resolution: 'Resubmit the request.  If the problem persists, consider resetting the service or provider.',
    },
    OperationTimeout: {
      description:
        'Indicates that one of the internal operations necessary to complete the request timed out.  Examples of this are when an internal service provider is unable to complete the request, such as in aggregation or RDE.',
      message: 'A timeout internal to the service occured as part of the request.  Partial results may have been returned.',
      severity: 'Warning',
      paramTypes: [],
      resolution: 'Resubmit the request.  If the problem persists, consider resetting the service or provider.',
    },
    PasswordChangeRequired: {
      description:
        'Indicates that the password for the account provided must be changed before accessing the service.  The password can be changed with a PATCH to the `Password` property in the manager account resource instance.  Implementations that provide a default password for an account may require a password change prior to first access to the service.',
      message:
        "The password provided for this account must be changed before access is granted.  PATCH the Password property for this account located at the target URI '%1' to complete this process.",
      severity: 'Critical',
      paramTypes: ['string'],
      resolution: 'Change the password for this account using a PATCH to the Password property at the URI provided.',
    },
    PreconditionFailed: {
      description: 'Indicates that the ETag supplied did not match the current ETag of the resource.',
      message: 'The ETag supplied did not match the ETag required to change this resource.',
      severity: 'Critical',
      paramTypes: [],
      resolution: 'Try the operation again using the appropriate ETag.',
    },
    PreconditionRequired: {
      description:
        'Indicates that the request did not provide the required precondition such as an `If-Match` or `If-None-Match` header, or `@odata.etag` annotations.',
      message: 'A precondition header or annotation is required to change this resource.',
      severity: 'Critical',
      paramTypes: [],
      resolution: 'Try the operation again using an If-Match or If-None-Match header and appropriate ETag.',
    },
    PropertyDeprecated: {
      description: 'Indicates the property is deprecated.',
      message: 'The deprecated property %1 was included in the request body.',
      severity: 'Warning',
      paramTypes: ['string'],
      resolution: 'Refer to the schema guide for more information.',
    },
    PropertyDuplicate: {
      description: 'Indicates that a duplicate property was included in the request body.',
      message: 'The property %1 was duplicated in the request.',
      severity: 'Warning',
      paramTypes: ['string'],
      resolution: 'Remove the duplicate property from the request body and resubmit the request if the operation failed.',
    },
    PropertyMissing: {
      description: 'Indicates that a required property was not supplied as part of the request.',
      message: 'The property %1 is a required property and must be included in the request.',
      severity: 'Warning',
      paramTypes: ['string'],
      resolution: 'Ensure that the property is in the request body and has a valid value and resubmit the request if the operation failed.',
    },
    PropertyNotUpdated: {
      description: 'Indicates that a property was not updated due to an internal service error, but the service is still functional.',
      message: 'The property %1 was not updated due to an internal service error.  The service is still operational.',
      severity: 'Critical',
      paramTypes: ['string'],
      resolution: 'Resubmit the request.  If the problem persists, check for additional messages and consider resetting the service.',
    },
    PropertyNotWritable: {
      description: 'Indicates that a property was given a value in the request body, but the property is a readonly property.',
      message: 'The property %1 is a read only property and cannot be assigned a value.',
      severity: 'Warning',
      paramTypes: ['string'],
      resolution: 'Remove the property from the request body and resubmit the request if the operation failed.',
    },
    PropertyUnknown: {
      description: 'Indicates that an unknown property was included in the request body.',
      message: 'The property %1 is not in the list of valid properties for the resource.',
      severity: 'Warning',
      paramTypes: ['string'],
      resolution: 'Remove the unknown property from the request body and resubmit the request if the operation failed.',
    },
    PropertyValueConflict: {
      description:
        'Indicates that the requested write of a property value could not be completed, because of a conflict with another property value.',
      message: "The property '%1' could not be written because its value would conflict with the value of the '%2' property.",
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'No resolution is required.',
    },
    PropertyValueDeprecated: {
      description: 'Indicates that a property was given a deprecated value.',
      message: "The value '%1' for the property %2 is deprecated.",
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'Refer to the schema guide for more information.',
    },
    PropertyValueError: {
      description: 'Indicates that a property was given an invalid value.',
      message: 'The value provided for the property %1 is not valid.',
      severity: 'Warning',
      paramTypes: ['string'],
      resolution: 'Correct the value for the property in the request body and resubmit the request if the operation failed.',
    },
    PropertyValueExternalConflict: {
      description:
        'Indicates that the requested write of a property value could not be completed, due to the current state or configuration of the resource.  This can include configuration conflicts with other resources or parameters that are not exposed by this interface.',
      message:
        "The property '%1' with the requested value of '%2' could not be written because the value is not available due to a configuration conflict.",
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'No resolution is required.',
    },
    PropertyValueFormatError: {
      description: 'Indicates that a property was given the correct value type but the value of that property was not supported.',
      message: "The value '%1' for the property %2 is of a different format than the property can accept.",
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'Correct the value for the property in the request body and resubmit the request if the operation failed.',
    },
    PropertyValueIncorrect: {
      description:
        'Indicates that the requested write of a property value could not be completed, because of an incorrect value of the property.  Examples include values that do not match a regular expression requirement or passwords that do not match the implementation constraints.',
      message:
        "The property '%1' with the requested value of '%2' could not be written because the value does not meet the constraints of the implementation.",
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'No resolution is required.',
    },
    PropertyValueModified: {
      description:
        'Indicates that a property was given the correct value type but the value of that property was modified.  Examples are truncated or rounded values.',
      message: "The property %1 was assigned the value '%2' due to modification by the service.",
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'No resolution is required.',
    },
    PropertyValueNotInList: {
      description:
        'Indicates that a property was given the correct value type but the value of that property was not supported.  The value is not in an enumeration.',
      message: "The value '%1' for the property %2 is not in the list of acceptable values.",
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution:
        'Choose a value from the enumeration list that the implementation can support and resubmit the request if the operation failed.',
    },
    PropertyValueOutOfRange: {
      description:
        'Indicates that a property was given the correct value type but the value of that property is outside the supported range.',
      message: "The value '%1' for the property %2 is not in the supported range of acceptable values.",
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'Correct the value for the property in the request body and resubmit the request if the operation failed.',
    },
    PropertyValueResourceConflict: {
      description:
        'Indicates that the requested write of a property value could not be completed, due to the current state or configuration of another resource.',
      message:
        "The property '%1' with the requested value of '%2' could not be written because the value conflicts with the state or configuration of the resource at '%3'.",
      severity: 'Warning',
      paramTypes: ['string', 'string', 'string'],
      resolution: 'No resolution is required.',
    },
    PropertyValueTypeError: {
      description:
        'Indicates that a property was given the wrong value type, such as when a number is supplied for a property that requires a string.',
      message: "The value '%1' for the property %2 is of a different type than the property can accept.",
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'Correct the value for the property in the request body and resubmit the request if the operation failed.',
    },
    QueryCombinationInvalid: {
      description: 'Indicates the request contains multiple query parameters, and that two or more of them cannot be used together.',
      message: 'Two or more query parameters in the request cannot be used together.',
      severity: 'Warning',
      paramTypes: [],
      resolution: 'Remove one or more of the query parameters and resubmit the request if the operation failed.',
    },
    QueryNotSupported: {
      description: 'Indicates that query is not supported on the implementation.',
      message: 'Querying is not supported by the implementation.',
      severity: 'Warning',
      paramTypes: [],
      resolution: 'Remove the query parameters and resubmit the request if the operation failed.',
    },
    QueryNotSupportedOnOperation: {
      description:
        'Indicates that query is not supported with the given operation, such as when the `$expand` query is attempted with a PATCH operation.',
      message: 'Querying is not supported with the requested operation.',
      severity: 'Warning',
      paramTypes: [],
      resolution: 'Remove the query parameters and resubmit the request if the operation failed.',
    },
    QueryNotSupportedOnResource: {
      description:
        'Indicates that query is not supported on the given resource, such as when the `$skip` query is attempted on a resource that is not a collection.',
      message: 'Querying is not supported on the requested resource.',
      severity: 'Warning',
      paramTypes: [],
      resolution: 'Remove the query parameters and resubmit the request if the operation failed.',
    },
    QueryParameterOutOfRange: {
      description:
        'Indicates that a query parameter was provided that is out of range for the given resource.  This can happen with values that are too low or beyond that possible for the supplied resource, such as when a page is requested that is beyond the last page.',
      message: "The value '%1' for the query parameter %2 is out of range %3.",
      severity: 'Warning',
      paramTypes: ['string', 'string', 'string'],
      resolution:
        'Reduce the value for the query parameter to a value that is within range, such as a start or count value that is within bounds of the number of resources in a collection or a page that is within the range of valid pages.',
    },
    QueryParameterValueError: {
      description: 'Indicates that a query parameter was given an invalid value.',
      message: 'The value for the parameter %1 is invalid.',
      severity: 'Warning',
      paramTypes: ['string'],
      resolution: 'Correct the value for the query parameter in the request and resubmit the request if the operation failed.',
    },
    QueryParameterValueFormatError: {
      description:
        'Indicates that a query parameter was given the correct value type but the value of that parameter was not supported.  This includes the value size or length has been exceeded.',
      message: "The value '%1' for the parameter %2 is of a different format than the parameter can accept.",
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'Correct the value for the query parameter in the request and resubmit the request if the operation failed.',
    },
    QueryParameterValueTypeError: {
      description:
        'Indicates that a query parameter was given the wrong value type, such as when a number is supplied for a query parameter that requires a string.',
      message: "The value '%1' for the query parameter %2 is of a different type than the parameter can accept.",
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'Correct the value for the query parameter in the request and resubmit the request if the operation failed.',
    },
    ResetRecommended: {
      description:
        'Indicates that a component reset is recommended for error recovery while unaffected applications can continue running without any effects on accuracy and performance.',
      message: "In order to recover from errors, a component reset is recommended with the Reset action URI '%1' and ResetType '%2'.",
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'Perform the recommended reset action on the specified component.',
    },
    ResetRequired: {
      description: 'Indicates that a component reset is required for changes, error recovery, or operations to complete.',
      message:
        "In order to apply changes, recover from errors, or complete the operation, a component reset is required with the Reset action URI '%1' and ResetType '%2'.",
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'Perform the required reset action on the specified component.',
    },
    ResourceAlreadyExists: {
      description:
        'Indicates that a resource change or creation was attempted but that the operation cannot proceed because the resource already exists.',
      message: "The requested resource of type %1 with the property %2 with the value '%3' already exists.",
      severity: 'Critical',
      paramTypes: ['string', 'string', 'string'],
      resolution: 'Do not repeat the create operation as the resource has already been created.',
    },
    ResourceAtUriInUnknownFormat: {
      description: 'Indicates that the URI was valid but the resource or image at that URI was in a format not supported by the service.',
      message: "The resource at '%1' is in a format not recognized by the service.",
      severity: 'Critical',
      paramTypes: ['string'],
      resolution: 'Place an image or resource or file that is recognized by the service at the URI.',
    },
    ResourceAtUriUnauthorized: {
      description: 'Indicates that the attempt to access the resource, file, or image at the URI was unauthorized.',
      message: "While accessing the resource at '%1', the service received an authorization error '%2'.",
      severity: 'Critical',
      paramTypes: ['string', 'string'],
      resolution: 'Ensure that the appropriate access is provided for the service in order for it to access the URI.',
    },
    ResourceCannotBeDeleted: {
      description: 'Indicates that a delete operation was attempted on a resource that cannot be deleted.',
      message: 'The delete request failed because the resource requested cannot be deleted.',
      severity: 'Critical',
      paramTypes: [],
      resolution: 'Do not attempt to delete a non-deletable resource.',
    },
    ResourceCreationConflict: {
      description:
        'Indicates that the requested resource creation could not be completed because the service has a resource that conflicts with the request.',
      message: "The resource could not be created.  The service has a resource at URI '%1' that conflicts with the creation request.",
      severity: 'Warning',
      paramTypes: ['string'],
      resolution: 'No resolution is required.',
    },
    ResourceDeprecated: {
      description: 'Indicates the resource is deprecated.',
      message: "The operation was performed on a deprecated resource '%1'.",
      severity: 'Warning',
      paramTypes: ['string'],
      resolution: 'Refer to the schema guide for more information.',
    },
    ResourceExhaustion: {
      description:
        'Indicates that a resource could not satisfy the request due to some unavailability of resources.  An example is that available capacity has been allocated.',
      message: "The resource '%1' was unable to satisfy the request due to unavailability of resources.",
      severity: 'Critical',
      paramTypes: ['string'],
      resolution: 'Ensure that the resources are available and resubmit the request.',
    },
    ResourceInStandby: {
      description: 'Indicates that the request could not be performed because the resource is in standby.',
      message: 'The request could not be performed because the resource is in standby.',
      severity: 'Critical',
      paramTypes: [],
      resolution: 'Ensure that the resource is in the correct power state and resubmit the request.',
    },
    ResourceInUse: {
      description:
        'Indicates that a change was requested to a resource but the change was rejected due to the resource being in use or transition.',
      message: 'The change to the requested resource failed because the resource is in use or in transition.',
      severity: 'Warning',
      paramTypes: [],
      resolution: 'Remove the condition and resubmit the request if the operation failed.',
    },
    ResourceMissingAtURI: {
      description:
        'Indicates that the operation expected an image or other resource at the provided URI but none was found.  Examples of this are in requests that require URIs like firmware update.',
      message: "The resource at the URI '%1' was not found.",
      severity: 'Critical',
      paramTypes: ['string'],
      resolution: 'Place a valid resource at the URI or correct the URI and resubmit the request.',
    },
    ResourceNotFound: {
      description:
        'Indicates that the operation expected a resource identifier that corresponds to an existing resource but one was not found.',
      message: "The requested resource of type %1 named '%2' was not found.",
      severity: 'Critical',
      paramTypes: ['string', 'string'],
      resolution: 'Provide a valid resource identifier and resubmit the request.',
    },
    ResourceTypeIncompatible: {
      description:
        'Indicates that the resource type of the operation does not match that for the operation destination.  Examples of when this can happen include during a POST to a resource collection using the wrong resource type, an update where the `@odata.type` properties do not match, or on a major version incompatibility.',
      message: 'The @odata.type of the request body %1 is incompatible with the @odata.type of the resource, which is %2.',
      severity: 'Critical',
      paramTypes: ['string', 'string'],
      resolution: "Resubmit the request with a payload compatible with the resource's schema.",
    },
    RestrictedPrivilege: {
      description: 'Indicates that the operation was not successful because a privilege is restricted.',
      message: "The operation was not successful because the privilege '%1' is restricted.",
      severity: 'Warning',
      paramTypes: ['string'],
      resolution: 'Remove restricted privileges from the request body and resubmit the request.',
    },
    RestrictedRole: {
      description: 'Indicates that the operation was not successful because the role is restricted.',
      message: "The operation was not successful because the role '%1' is restricted.",
      severity: 'Warning',
      paramTypes: ['string'],
      resolution:
        'No resolution is required.  For standard roles, consider using the role specified in the AlternateRoleId property in the Role resource.',
    },
    ServiceDisabled: {
      description:
        'Indicates that the operation failed because the service, such as the account service, is disabled and cannot accept requests.',
      message: 'The operation failed because the service at %1 is disabled and cannot accept requests.',
      severity: 'Warning',
      paramTypes: ['string'],
      resolution: 'Enable the service and resubmit the request if the operation failed.',
    },
    ServiceInUnknownState: {
      description: 'Indicates that the operation failed because the service is in an unknown state and cannot accept additional requests.',
      message: 'The operation failed because the service is in an unknown state and can no longer take incoming requests.',
      severity: 'Critical',
      paramTypes: [],
      resolution: 'Restart the service and resubmit the request if the operation failed.',
    },
    ServiceShuttingDown: {
      description: 'Indicates that the operation failed as the service is shutting down, such as when the service reboots.',
      message: 'The operation failed because the service is shutting down and can no longer take incoming requests.',
      severity: 'Critical',
      paramTypes: [],
      resolution: 'When the service becomes available, resubmit the request if the operation failed.',
    },
    ServiceTemporarilyUnavailable: {
      description: 'Indicates the service is temporarily unavailable.',
      message: 'The service is temporarily unavailable.  Retry in %1 seconds.',
      severity: 'Critical',
      paramTypes: ['string'],
      resolution: 'Wait for the indicated retry duration and retry the operation.',
    },
    SessionLimitExceeded: {
      description:
        'Indicates that a session establishment has been requested but the operation failed due to the number of simultaneous sessions exceeding the limit of the implementation.',
      message: 'The session establishment failed due to the number of simultaneous sessions exceeding the limit of the implementation.',
      severity: 'Critical',
      paramTypes: [],
      resolution:
        'Reduce the number of other sessions before trying to establish the session or increase the limit of simultaneous sessions, if supported.',
    },
    SessionTerminated: {
      description: 'Indicates that the DELETE operation on the session resource resulted in the successful termination of the session.',
      message: 'The session was successfully terminated.',
      severity: 'OK',
      paramTypes: [],
      resolution: 'No resolution is required.',
    },
    SourceDoesNotSupportProtocol: {
      description:
        'Indicates that while attempting to access, connect to or transfer a resource, file, or image from another location that the other end of the connection did not support the protocol.',
      message: "The other end of the connection at '%1' does not support the specified protocol %2.",
      severity: 'Critical',
      paramTypes: ['string', 'string'],
      resolution: 'Change protocols or URIs.',
    },
    StrictAccountTypes: {
      description:
        'Indicates the request failed because a set of `AccountTypes` or `OEMAccountTypes` was not accepted while `StrictAccountTypes` is set to `true`.',
      message:
        "The request was not possible to fulfill with the account types included in property '%1' and property StrictAccountTypes set to true.",
      severity: 'Warning',
      paramTypes: ['string'],
      resolution:
        'Resubmit the request either with an acceptable set of AccountTypes and OEMAccountTypes or with StrictAccountTypes set to false.',
    },
    StringValueTooLong: {
      description:
        'Indicates that a string value passed to the given resource exceeded its length limit.  An example is when a shorter limit is imposed by an implementation than that allowed by the specification.',
      message: "The string '%1' exceeds the length limit %2.",
      severity: 'Warning',
      paramTypes: ['string', 'number'],
      resolution: 'Resubmit the request with an appropriate string length.',
    },
    SubscriptionTerminated: {
      description: 'An event subscription has been terminated by the service.  No further events will be delivered.',
      message: 'The event subscription has been terminated.',
      severity: 'OK',
      paramTypes: [],
      resolution: 'No resolution is required.',
    },
    Success: {
      description: 'Indicates that all conditions of a successful operation have been met.',
      message: 'The request completed successfully.',
      severity: 'OK',
      paramTypes: [],
      resolution: 'None',
    },
    UndeterminedFault: {
      description:
        'Indicates that a fault or error condition exists but the source of the fault cannot be determined or is unknown to the service.',
      message: "A undetermined fault condition has been reported by '%1'.",
      severity: 'Critical',
      paramTypes: ['string'],
      resolution: 'None.',
    },
    UnrecognizedRequestBody: {
      description:
        'Indicates that the service encountered an unrecognizable request body that could not even be interpreted as malformed JSON.',
      message: 'The service detected a malformed request body that it was unable to interpret.',
      severity: 'Warning',
      paramTypes: [],
      resolution: 'Correct the request body and resubmit the request if it failed.',
    },
  },
} as const satisfies RegistryDef;
